import { agencySettingsSchema } from '@aed/contracts/settings'

const shape = agencySettingsSchema.shape
const bounds = (n: { minValue: number | null; maxValue: number | null }) => ({
  min: n.minValue ?? 0,
  max: n.maxValue ?? Number.MAX_SAFE_INTEGER,
})

/** The contract's bounds of each numeric dispatch setting, read from its schema. */
export const DISPATCH_RANGES = {
  dispatch_first_wave: bounds(shape.dispatch_first_wave.unwrap()),
  dispatch_phase_s: bounds(shape.dispatch_phase_s.unwrap()),
  dispatch_max: bounds(shape.dispatch_max.unwrap()),
  dispatch_answer_s: bounds(shape.dispatch_answer_s.unwrap()),
  dispatch_enough: bounds(shape.dispatch_enough.unwrap()),
  dispatch_patient_pct: bounds(shape.dispatch_patient_pct.unwrap()),
  dispatch_aed_detour_m: bounds(shape.dispatch_aed_detour_m.unwrap()),
  dispatch_speed_mps: bounds(shape.dispatch_speed_mps.unwrap()),
  /** One phase's radius. */
  dispatch_radii_m: bounds(shape.dispatch_radii_m.unwrap().element),
} as const

/** Phases at most (the contract's array length). */
export const RADII_MAX = 5

/** Whether `radii` is what the contract takes: 1-5 whole numbers in range, each larger than the one before. */
export function radiiValid(radii: readonly (number | null | undefined)[] | undefined): boolean {
  const { min, max } = DISPATCH_RANGES.dispatch_radii_m
  if (!radii || radii.length === 0 || radii.length > RADII_MAX) return false
  return radii.every(
    (v, i) =>
      typeof v === 'number' &&
      Number.isInteger(v) &&
      v >= min &&
      v <= max &&
      (i === 0 || v > (radii[i - 1] ?? 0)),
  )
}
