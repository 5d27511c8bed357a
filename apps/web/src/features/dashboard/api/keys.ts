/** A statistic of the dashboard: status counts, battery and expiry bands, devices per region. */
export type DashboardStat = 'state' | 'bands' | 'regions'

/** Query keys of the dashboard: its statistics and its map. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  /** A statistic for a region ('' the whole scope); without a region, that statistic of every region. */
  stats: (name: DashboardStat, region?: string) =>
    region === undefined
      ? (['dashboard', 'stats', name] as const)
      : (['dashboard', 'stats', name, region] as const),
  /** The map's devices of a region ('' the whole scope) in the ticked statuses ('0,2' ...). */
  devices: (region: string, statuses: string) => ['dashboard', 'map', 'devices', region, statuses] as const,
  /** A marker layer's points for a region; without a region, that layer of every region. */
  layer: (key: string, region?: string) =>
    region === undefined
      ? (['dashboard', 'map', 'layer', key] as const)
      : (['dashboard', 'map', 'layer', key, region] as const),
  /** A device's popup. */
  popup: (id: number) => ['dashboard', 'map', 'popup', id] as const,
  /** The event a message opens (none: no event asked). */
  focus: (q: { event_type: number; event_id: number } | null) =>
    q
      ? (['dashboard', 'map', 'focus', q.event_type, q.event_id] as const)
      : (['dashboard', 'map', 'focus'] as const),
}
