/** The dashboard's refresh ticks (spec section 9): events every 5 minutes, status hourly, everything every 5 hours. */
export const DASHBOARD_REFRESH = { eventsMs: 5 * 60_000, statsMs: 3600_000, fullMs: 5 * 3600_000 } as const

/** At most one statistics refetch per this long, however many device status pushes arrive. */
export const DASHBOARD_LIVE_MS = 5000
