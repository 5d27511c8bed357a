/** A statistic of the dashboard: status counts, battery and expiry bands, devices per region. */
export type DashboardStat = 'state' | 'bands' | 'regions'

/** Query keys of the dashboard. */
export const dashboardKeys = {
  all: ['dashboard'] as const,
  /** A statistic for a region ('' the whole scope); without a region, that statistic of every region. */
  stats: (name: DashboardStat, region?: string) =>
    region === undefined
      ? (['dashboard', 'stats', name] as const)
      : (['dashboard', 'stats', name, region] as const),
}
