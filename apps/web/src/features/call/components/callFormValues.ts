import type { CallForm } from '@aed/contracts/call'
import type { Dayjs } from 'dayjs'
import dayjs from 'dayjs'
import type { LatLon } from '../../../components/MapView/datum'
import { DATE_TIME_FORMAT, TIME_ZONE, todayInZone } from '../../../lib/datetime'

/** The 登记呼救 form as antd holds it: the place as one point (the map picker's value), the time as a date. */
export type CallFormValues = {
  phone?: string
  place?: LatLon | null
  location?: string
  call_time?: Dayjs | null
  description?: string
}

/**
 * The picker's date holds the organisations' wall clock (Asia/Shanghai), whatever the browser's
 * zone: a new call is taken now as they see it, and what is picked is read in their zone.
 */
export const newCallValues = (): CallFormValues => ({
  call_time: dayjs(todayInZone().format(DATE_TIME_FORMAT)),
})

/** The instant a picked call time stands for: its wall clock in the organisations' time zone. */
export const callInstant = (time: Dayjs): Dayjs => dayjs.tz(time.format(DATE_TIME_FORMAT), TIME_ZONE)

/** What the server is sent: the point's coordinates, the time as ISO 8601 with offset (now when left empty). */
export function toCallForm(v: CallFormValues): CallForm {
  return {
    phone: v.phone?.replace(/\s+/g, '') ?? '',
    lat: v.place?.lat as number,
    lon: v.place?.lon as number,
    location: v.location?.trim() ?? '',
    call_time: v.call_time ? callInstant(v.call_time).format() : undefined,
    description: v.description?.trim() || null,
  }
}
