/**
 * The port through which the device guard (plugins/auth/device.ts) finds a device's secrets: the
 * composition fills AppContext.deviceCredentials with the device and cabinet registries' lookup.
 * Here, below the context and the plugins, so that neither imports the other for it.
 */

/** The device a /device-api request comes from. */
export type DeviceIdentity = {
  kind: 'aed' | 'cabinet'
  /** Its row id in its table. */
  id: number
  /** `device_sn` or `cabinet_sn`. */
  sn: string
  /** Commands were open for it when it was looked up (absent: not known, look). */
  commandsWaiting?: boolean
}

/** What verifying a device needs: its identity and the secrets it may sign with. */
export type DeviceCredentials = DeviceIdentity & {
  /**
   * The 64-hex-character secrets, as the device stores them: the current one and, for 24 hours
   * after a rotation, the previous one.
   */
  secrets: readonly string[]
}

/** Finds a device by serial; null for an unknown or deleted one. The device registry fills it. */
export type DeviceCredentialLookup = (sn: string) => Promise<DeviceCredentials | null>
