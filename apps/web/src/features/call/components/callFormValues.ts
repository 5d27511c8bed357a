import type { CallForm } from '@aed/contracts/call'
import type { Dayjs } from 'dayjs'
import dayjs from 'dayjs'
import type { LatLon } from '../../../components/MapView/datum'

/** The 登记呼救 form as antd holds it: the place as one point (the map picker's value), the time as a date. */
export type CallFormValues = {
  phone?: string
  place?: LatLon | null
  location?: string
  call_time?: Dayjs | null
  description?: string
}

/** A new call: taken now. */
export const newCallValues = (): CallFormValues => ({ call_time: dayjs() })

/** What the server is sent: the point's coordinates, the time as ISO 8601 with offset (now when left empty). */
export function toCallForm(v: CallFormValues): CallForm {
  return {
    phone: v.phone?.replace(/\s+/g, '') ?? '',
    lat: v.place?.lat as number,
    lon: v.place?.lon as number,
    location: v.location?.trim() ?? '',
    call_time: v.call_time ? v.call_time.format() : undefined,
    description: v.description?.trim() || null,
  }
}
