import type { Device } from '@aed/contracts/device'
import type { ComponentType } from 'react'

/**
 * What opens a device's detail: a list row, or a device's id, serial and status from elsewhere (the
 * map); the status may be unknown (a rescue), and the title shows it once the device has loaded.
 */
export type DeviceRef = Pick<Device, 'id' | 'device_sn'> & Partial<Pick<Device, 'status' | 'status_text'>>

/**
 * A device's detail drawer as another feature's page receives it: the device feature draws it,
 * the app hands it to the pages that open it (app/pages.ts).
 */
export type DeviceDetail = ComponentType<{
  device: DeviceRef | null
  onClose: () => void
  /** A rescue of the device (its rescue_event_id): the record tabs show that rescue's span, the usage log its steps. */
  rescueEventId?: string
}>
