import type { EventKind } from './event.ts'

/**
 * The one status 0-4 of a device from its open conditions, by one priority: fault 2, then
 * offset 3, then offline 4, then warning 1, else normal 0 (ARCHITECTURE.md, "Conditions, then
 * status"). The engine's reducer and the device clean-up both derive it with this.
 */
export function statusOfConditions(open: Iterable<EventKind>): 0 | 1 | 2 | 3 | 4 {
  const kinds = new Set(open)
  if (kinds.has('fault')) return 2
  if (kinds.has('offset')) return 3
  if (kinds.has('offline')) return 4
  if (kinds.has('warning')) return 1
  return 0
}
