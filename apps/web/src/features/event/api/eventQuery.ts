import type { QueryIn } from '@aed/contracts'
import { EVENT_LIST_ENDPOINTS, type EventKind, type eventApi } from '@aed/contracts/event'
import type { Filters } from '../../../components/DataTable/listParams'

export type EventQueryIn = QueryIn<typeof eventApi.fault>

const FORWARDED = [
  'device_sn',
  'manager_id',
  'agency_id',
  'install_location',
  'start_time',
  'end_time',
  'report_type',
] as const

const text = (v: Filters[string] | undefined) => (typeof v === 'string' && v.trim() ? v.trim() : undefined)

/** A page's query from the URL filters and the tab (当前: current=true, 历史: current=false). */
export function eventQuery(filters: Filters, current: boolean): EventQueryIn {
  const query: Record<string, string | undefined> = { current: current ? 'true' : 'false' }
  for (const key of FORWARDED) query[key] = text(filters[key])
  return query as EventQueryIn
}

/**
 * A page's list endpoint, typed as the fault page's: the four share their query but for
 * report_type (the others ignore it) and the rows are read by kind (EventRowOf).
 */
export const listEndpoint = (kind: EventKind) => EVENT_LIST_ENDPOINTS[kind] as typeof eventApi.fault
