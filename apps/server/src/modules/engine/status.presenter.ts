import type { liveDeviceStatusData } from '@aed/contracts/live'
import type { z } from 'zod'

// A device's status as the console sees it, shared by the device list (device.presenter.ts reads
// its shown status from here) and the live status push (data_type 11, written by the engine's
// effects): a pushed device agrees with the fetched one on every field the push carries.

/** The fields of a device the status push carries, as the device list's row names them. */
export type DeviceStatusRow = {
  id: number
  device_sn: string
  /** The engine's status 0-4. */
  status: number
  /** 1: the installation hides abnormal states (lists and the map show it normal). */
  disable_abnormal_display: number | null
  readiness: 'ready' | 'not_ready' | 'unknown'
  readiness_reasons: string[]
  lat: number | null
  lon: number | null
}

/** The status an installation shows: normal when it hides abnormal states (disable_abnormal_display). */
export const shownStatus = (row: Pick<DeviceStatusRow, 'status' | 'disable_abnormal_display'>) =>
  row.disable_abnormal_display === 1 ? 0 : row.status

export type DeviceStatusPush = z.infer<typeof liveDeviceStatusData>

/** The live status push of a device (data_type 11). */
export function presentStatusPush(row: DeviceStatusRow): DeviceStatusPush {
  return {
    device_id: row.id,
    device_sn: row.device_sn,
    status: row.status,
    shown_status: shownStatus(row),
    readiness: row.readiness,
    reasons: row.readiness_reasons,
    lon: row.lon,
    lat: row.lat,
  }
}

/**
 * Each field of the push and the device list's field it equals (`status`, the engine's raw one,
 * is the list's only where the installation shows abnormal states).
 */
export const STATUS_PUSH_FIELDS = {
  device_id: 'id',
  device_sn: 'device_sn',
  shown_status: 'status',
  readiness: 'readiness',
  reasons: 'readiness_reasons',
  lon: 'lon',
  lat: 'lat',
} as const satisfies Partial<Record<keyof DeviceStatusPush, string>>
