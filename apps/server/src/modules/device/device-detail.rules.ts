import { CleanType, type CleanTypeValue } from '@aed/contracts/device-detail'
import type { DeviceEventKind } from '../../db/schema.ts'

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
