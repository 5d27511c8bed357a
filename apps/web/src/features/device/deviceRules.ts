import type { Device } from '@aed/contracts/device'
import type { Dayjs } from 'dayjs'
import { type DeviceFormValues, filledPeriods } from './components/deviceFormValues'

/** Expiry dates cannot lie before the end of today. */
export const beforeToday = (d: Dayjs, today: Dayjs) => d.isBefore(today, 'day')

/**
 * The dialog's checks after the required fields, in the spec's order; the i18n key of the first
 * failure: periods that end before they start, both photos, the picked point, a move that moved,
 * a replacement with another serial.
 */
export function deviceProblem(v: DeviceFormValues, stored: Device | undefined): string | null {
  if (v.open_state === 1) {
    const periods = filledPeriods(v.open_time_period)
    if (periods.some(([a, b]) => a >= b)) return 'device.problem.periodOrder'
  }
  if (!v.chest_shot_img) return 'device.problem.chestImg'
  if (!v.long_shot_img) return 'device.problem.longImg'
  if (typeof v.lat !== 'number' || typeof v.lon !== 'number') return 'device.problem.coordinates'
  if (stored && v.update_type === 2) {
    const moved =
      (v.location ?? '').trim() !== stored.location ||
      ((v.location_desc ?? '').trim() || null) !== (stored.location_desc || null)
    if (!moved) return 'device.problem.moveUnchanged'
  }
  if (stored && v.update_type === 3 && (v.new_device_sn ?? '').trim() === stored.device_sn) {
    return 'device.problem.snUnchanged'
  }
  return null
}
