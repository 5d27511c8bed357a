import { DATA_DICT } from '@aed/contracts/constants'

// What the demo devices are: their models and firmware by how common they are, and the days
// from today that fall well inside each band of the data dictionary, with each band's share.

/** Serial model codes (characters 2-3) by how common the model is. */
export const MODEL_CODES: [string, number][] = [
  ['64', 30],
  ['70', 20],
  ['67', 12],
  ['73', 8],
  ['65', 8],
  ['71', 6],
  ['66', 5],
  ['68', 4],
  ['72', 3],
  ['69', 2],
  ['74', 1],
  ['75', 1],
]
export const FIRMWARE = ['V1.0.3', 'V1.1.0', 'V1.2.1', 'V2.0.0']

/** Days from today inside each expiry_band (0 expired ... 3 over 6 months), clear of the edges. */
export const EXPIRY_DAYS: Record<number, [number, number]> = {
  0: [-300, -2],
  1: [6, 84],
  2: [98, 176],
  3: [196, 1000],
}
/** The same for host_expiry_band (0 expired ... 3 over a year). */
export const HOST_DAYS: Record<number, [number, number]> = {
  0: [-200, -2],
  1: [6, 176],
  2: [196, 360],
  3: [380, 2200],
}
/** Battery percentages inside each battery_band (0 exhausted, 1 low, 2 normal). */
export const BATTERY: Record<number, [number, number]> = { 0: [0, 5], 1: [6, 9], 2: [30, 100] }

/** Each band's share: mostly healthy, a few in every other band. */
export const EXPIRY_MIX: [number, number][] = [
  [3, 70],
  [2, 14],
  [1, 10],
  [0, 6],
]
export const BATTERY_MIX: [number | null, number][] = [
  [2, 88],
  [1, 5],
  [0, 4],
  [null, 3],
]

/** Checks the band tables against the data dictionary, so a changed band cannot go unseen. */
export function checkBands() {
  const months = (d: number) => d / 30.4375
  for (const [bands, days] of [
    [DATA_DICT.expiry_band, EXPIRY_DAYS],
    [DATA_DICT.host_expiry_band, HOST_DAYS],
  ] as const) {
    for (const b of bands) {
      const [lo, hi] = days[b.value as number]
      for (const d of [lo - 1, hi + 1]) {
        // A day of drift (a seed made yesterday, another time zone) must stay in the band.
        const m = months(d)
        if ((b.min !== undefined && m <= b.min) || (b.max !== undefined && m > b.max)) {
          throw new Error(`demo seed: ${d} days is outside band ${b.value}`)
        }
      }
    }
  }
}
