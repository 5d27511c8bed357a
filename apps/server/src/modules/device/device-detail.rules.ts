import { CleanType, type CleanTypeValue } from '@aed/contracts/device-detail'
import type { DeviceEventKind } from '../../db/schema.ts'

/**
 * The one status 0-4 of a device from its open conditions, by one priority: fault 2, then
 * offset 3, then offline 4, then warning 1, else normal 0 (ARCHITECTURE.md, "Conditions, then
 * status"). The gateway's reducer and the clean-up both derive it with this.
 */
export function statusOfConditions(open: Iterable<DeviceEventKind>): 0 | 1 | 2 | 3 | 4 {
  const kinds = new Set(open)
  if (kinds.has('fault')) return 2
  if (kinds.has('offset')) return 3
  if (kinds.has('offline')) return 4
  if (kinds.has('warning')) return 1
  return 0
}

/** What a clean-up deletes: event kinds, and whether rescues and self-tests go too. */
export type CleanPlan = { kinds: DeviceEventKind[]; rescues: boolean; detections: boolean }

/**
 * The clean-up's data types as a plan: 1 rescue events (with their usage logs), 2 warnings,
 * 3 offsets, 4 faults; 'all' is every record the device reported, offline spells and self-tests
 * included (staff inspections are people's work records and stay).
 */
export function cleanPlan(types: CleanTypeValue[]): CleanPlan {
  if (types.includes(CleanType.ALL)) {
    return { kinds: ['warning', 'offset', 'fault', 'offline'], rescues: true, detections: true }
  }
  const kinds: DeviceEventKind[] = []
  if (types.includes(CleanType.WARNING)) kinds.push('warning')
  if (types.includes(CleanType.OFFSET)) kinds.push('offset')
  if (types.includes(CleanType.FAULT)) kinds.push('fault')
  return { kinds, rescues: types.includes(CleanType.RESCUE), detections: false }
}
