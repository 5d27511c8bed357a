import type { StateDistribution } from '@aed/contracts/device-stats'

/** The spec's status colours, as the pies draw them (green, orange, purple, red, grey). */
export const STATUS_HEX: Record<number, string> = {
  0: '#52c41a',
  1: '#fa8c16',
  2: '#722ed1',
  3: '#f5222d',
  4: '#bfbfbf',
}

/** Where a status slice leads: its event page (spec 2.1). */
export const STATUS_PAGES: Record<number, string> = {
  1: '/eventManagement/earlyWarn',
  2: '/eventManagement/fault',
  3: '/eventManagement/locationOffset',
  4: '/eventManagement/offline',
}

/** The status distribution as [status, count] in the dictionary's order. */
export function statusCounts(s: StateDistribution): [number, number][] {
  return [
    [0, s.normal_count],
    [1, s.warn_event_count],
    [2, s.error_report_count],
    [3, s.offset_event_count],
    [4, s.disconnect_count],
  ]
}
