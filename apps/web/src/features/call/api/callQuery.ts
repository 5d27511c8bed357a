import type { QueryIn } from '@aed/contracts'
import { CALL_TIME_PRESETS, type callApi as calls } from '@aed/contracts/call'
import type { Dayjs } from 'dayjs'
import type { Filters } from '../../../components/DataTable/listParams'
import { timeWindow } from '../../../lib/timeWindow'

type CallListQueryIn = QueryIn<typeof calls.list>

const text = (v: Filters[string] | undefined) => (typeof v === 'string' && v.trim() ? v.trim() : undefined)

/** The call list's query from the URL filters: the call-time preset or custom range as start_time and end_time. */
export function callQuery(filters: Filters, now?: Dayjs): CallListQueryIn {
  return {
    phone: text(filters.phone),
    status: text(filters.status),
    outcome: text(filters.outcome) as CallListQueryIn['outcome'],
    address_code: text(filters.address_code),
    ...timeWindow(filters.call_time, CALL_TIME_PRESETS, now),
  }
}
