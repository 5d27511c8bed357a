import type { QueryIn } from '@aed/contracts'
import type { deviceApi } from '@aed/contracts/device'
import type { Filters } from '../../../components/DataTable/listParams'

export type DeviceListQueryIn = QueryIn<typeof deviceApi.list>

/** The install-time presets (menu keys) and their days back; key 5 is the custom range. */
export const INSTALL_PRESET_DAYS: Record<string, 7 | 30 | 90> = { '1': 7, '2': 30, '3': 90 }

const FORWARDED = [
  'device_sn',
  'model',
  'status',
  'address_code',
  'battery_state',
  'battery_expire_state',
  'electrode_sheet_expire_state',
  'host_expire_state',
  'agency_id',
  'manager_id',
] as const

const text = (v: Filters[string] | undefined) => (typeof v === 'string' && v.trim() ? v.trim() : undefined)

/**
 * The registered list's query from the URL filters: a preset install time becomes install_days,
 * a custom one (two dotted dates) start_time and end_time.
 */
export function deviceQuery(filters: Filters): DeviceListQueryIn {
  const query: Record<string, string | number | undefined> = {}
  for (const key of FORWARDED) query[key] = text(filters[key])
  const install = filters.install_time
  if (Array.isArray(install) && install.length === 2) {
    query.start_time = install[0].replaceAll('.', '-')
    query.end_time = install[1].replaceAll('.', '-')
  } else if (typeof install === 'string' && INSTALL_PRESET_DAYS[install]) {
    query.install_days = INSTALL_PRESET_DAYS[install]
  }
  return query as DeviceListQueryIn
}
