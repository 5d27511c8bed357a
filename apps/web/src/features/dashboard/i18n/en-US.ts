import type { dashboardZhCN } from './zh-CN'

/** The dashboard: en-US texts, with the keys of the zh-CN set. */
export const dashboardEnUS: typeof dashboardZhCN = {
  dashboard: {
    title: 'Dashboard',
    comingSoon: 'The dashboard arrives with the dashboard issue',
    description: 'The map, device status distribution and regional statistics will appear here.',
  },
}
