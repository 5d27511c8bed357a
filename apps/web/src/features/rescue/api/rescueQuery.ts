import type { QueryIn } from '@aed/contracts'
import { CALL_TIME_PRESETS } from '@aed/contracts/call'
import type { rescueApi } from '@aed/contracts/rescue'
import type { Dayjs } from 'dayjs'
import type { Filters } from '../../../components/DataTable/listParams'
import { timeWindow } from '../../../lib/timeWindow'

const text = (v: Filters[string] | undefined) => (typeof v === 'string' && v.trim() ? v.trim() : undefined)

/** The rescue list's query from the URL filters: the page's time presets (those of the calls) as start_time and end_time. */
export function rescueQuery(filters: Filters, now?: Dayjs): QueryIn<typeof rescueApi.list> {
  return {
    device_sn: text(filters.device_sn),
    address_code: text(filters.address_code),
    ...timeWindow(filters.event_time, CALL_TIME_PRESETS, now),
  }
}
