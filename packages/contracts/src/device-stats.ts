import { z } from 'zod'
import type { Label } from './constants.ts'
import { get } from './endpoint.ts'
import { count, regionFilter } from './fields.ts'

/**
 * The statistics of the dashboard and the device page. Every answer counts the registered
 * devices of the caller's subtree, installed in `address_code` and below it (the whole subtree
 * without one); a site with disable_abnormal_display 1 counts as normal, as the lists show it.
 */
export const deviceStatsQuery = z.object({
  /** A region code (province, city or district): the devices installed in it and below it. */
  address_code: regionFilter,
})
export type DeviceStatsQuery = z.output<typeof deviceStatsQuery>

/** The dashboard's status distribution (status 0 normal, 1 warning, 2 fault, 3 offset, 4 offline). */
export const stateDistributionSchema = z.object({
  all_count: count,
  /** Rescue events recorded in the scope (by the organisation they happened under) at sites in the region. */
  rescue_event_count: count,
  normal_count: count,
  warn_event_count: count,
  error_report_count: count,
  offset_event_count: count,
  disconnect_count: count,
})
export type StateDistribution = z.infer<typeof stateDistributionSchema>

/** One band of the data dictionary with its label (in the requester's language) and count. */
export const bandCountSchema = z.object({ value: z.number().int(), label: z.string(), count })
export type BandCount = z.infer<typeof bandCountSchema>

/**
 * Counts per band of the data dictionary: battery (battery_band; devices that never reported a
 * level are in no band), pads and battery expiry (expiry_band), host expiry (host_expiry_band).
 * Each band's value is the list filter that shows its devices (battery_state,
 * electrode_sheet_expire_state, battery_expire_state, host_expire_state).
 */
export const mainStateDistributionSchema = z.object({
  battery: z.array(bandCountSchema),
  electrode_sheet_expire: z.array(bandCountSchema),
  battery_expire: z.array(bandCountSchema),
  host_expire: z.array(bandCountSchema),
})
export type MainStateDistribution = z.infer<typeof mainStateDistributionSchema>

/** Devices per region one level below the asked one. */
export const regionalDistributionSchema = z.object({
  /** The region asked for (6 digits), null for the whole country. */
  address_code: z.string().nullable(),
  name: z.string(),
  /** Regions with devices, most devices first. */
  items: z.array(z.object({ address_code: z.string(), name: z.string(), device_count: count })),
})
export type RegionalDistribution = z.infer<typeof regionalDistributionSchema>

/** The device page's monthly maintenance line: one point per month, oldest first. */
export const maintenanceMonthlySchema = z.object({
  items: z.array(
    z.object({
      /** 'YYYY-MM' in the organisations' time zone. */
      month: z.string(),
      /** Devices registered at a site. */
      register_count: count,
      /** Inspections recorded. */
      inspect_count: count,
      /** Routine changes and moves of an installation. */
      change_count: count,
      /** Devices replaced at a site. */
      replace_count: count,
    }),
  ),
})
export type MaintenanceMonthly = z.infer<typeof maintenanceMonthlySchema>

/** How many months the maintenance line covers, this month included. */
export const MAINTENANCE_MONTHS = 12

/**
 * The key-maintenance bar: devices needing attention, by reason. `filter` is the device list's
 * filter that shows the bar's devices. Expiring: under 3 months for pads and battery, under 6
 * for the host (band 1 of expiry_band and host_expiry_band).
 */
export const KEY_MAINTENANCE: readonly { key: string; label: Label; filter: Record<string, number> }[] = [
  {
    key: 'electrode_sheet_expired',
    label: ['电极片已过期', 'Pads expired'],
    filter: { electrode_sheet_expire_state: 0 },
  },
  {
    key: 'electrode_sheet_expiring',
    label: ['电极片即将过期', 'Pads expiring'],
    filter: { electrode_sheet_expire_state: 1 },
  },
  { key: 'battery_expired', label: ['电池已过期', 'Battery expired'], filter: { battery_expire_state: 0 } },
  {
    key: 'battery_expiring',
    label: ['电池即将过期', 'Battery expiring'],
    filter: { battery_expire_state: 1 },
  },
  { key: 'host_expired', label: ['主机已过期', 'Device expired'], filter: { host_expire_state: 0 } },
  { key: 'host_expiring', label: ['主机即将过期', 'Device expiring'], filter: { host_expire_state: 1 } },
  { key: 'battery_exhausted', label: ['电量耗尽', 'Battery exhausted'], filter: { battery_state: 0 } },
  { key: 'battery_low', label: ['电量低', 'Battery low'], filter: { battery_state: 1 } },
  { key: 'fault', label: ['故障', 'Fault'], filter: { status: 2 } },
  { key: 'offline', label: ['离线', 'Offline'], filter: { status: 4 } },
]

export const keyMaintenanceSchema = z.object({
  /** Every device counted, for the bar's scale. */
  all_count: count,
  items: z.array(
    z.object({
      key: z.string(),
      label: z.string(),
      count,
      filter: z.record(z.string(), z.number().int()),
    }),
  ),
})
export type KeyMaintenance = z.infer<typeof keyMaintenanceSchema>

/** The statistics calls of the dashboard and the device page. */
export const deviceStatsApi = {
  stateDistribution: get('/api/v1/device/statistic/state-distribution/', {
    summary:
      'Devices per status (normal, warning, fault, offset, offline; a site hiding abnormal states counts as normal), all and rescue events, in the scope and region',
    query: deviceStatsQuery,
    response: stateDistributionSchema,
  }),
  mainStateDistribution: get('/api/v1/device/statistic/main-state-distribution/', {
    summary:
      'Devices per band of battery level, pads, battery and host expiry (the data dictionary’s bands, labelled), in the scope and region',
    query: deviceStatsQuery,
    response: mainStateDistributionSchema,
  }),
  regionalDistribution: get('/api/v1/device/statistic/regional-distribution/', {
    summary:
      'Devices per region one level below address_code (provinces for the country, cities for a province, districts for a city or a municipality), in the scope',
    query: deviceStatsQuery,
    response: regionalDistributionSchema,
  }),
  maintenanceMonthly: get('/api/v1/device/statistic/maintenance-monthly/', {
    summary:
      'The device page’s maintenance line: registrations, inspections, routine changes and moves, replacements per month over the last 12 months, in the scope and region',
    query: deviceStatsQuery,
    response: maintenanceMonthlySchema,
  }),
  keyMaintenance: get('/api/v1/device/statistic/key-maintenance/', {
    summary:
      'The device page’s key-maintenance bar: devices with expired or expiring pads, battery or host, exhausted or low battery, fault, offline, each with its list filter',
    query: deviceStatsQuery,
    response: keyMaintenanceSchema,
  }),
}
