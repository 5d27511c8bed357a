import type { dashboardZhCN } from './zh-CN'

/** The dashboard: en-US texts, with the keys of the zh-CN set. */
export const dashboardEnUS: typeof dashboardZhCN = {
  dashboard: {
    title: 'Dashboard',
    comingSoon: 'The dashboard arrives with the dashboard issue',
    description: 'The map, device status distribution and regional statistics will appear here.',
    stats: {
      status: 'Device status',
      total: 'Devices',
      rescues: 'Rescues',
      regions: 'Devices by region',
      bands: 'Device state statistics',
      battery: 'Battery level',
      electrode_sheet_expire: 'Pad expiry',
      battery_expire: 'Battery expiry',
      host_expire: 'Device expiry',
      rest: 'Others',
      empty: 'No devices',
      loadFailed: 'The statistics failed to load',
      retry: 'Retry',
    },
  },
}
