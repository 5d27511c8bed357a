/**
 * mulberry32, a small seeded generator: the same seed gives the same sequence, so demo data,
 * simulated devices and fuzzed requests are the same on every run.
 */
export function seededRng(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let x = a
    x = Math.imul(x ^ (x >>> 15), x | 1)
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296
  }
  return {
    next,
    /** An integer in [min, max]. */
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    /** A number in [min, max). */
    between: (min: number, max: number) => min + next() * (max - min),
    chance: (p: number) => next() < p,
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)],
    /** A value by weights: [[value, weight], ...]. */
    weighted: <T>(list: readonly (readonly [T, number])[]): T => {
      let r = next() * list.reduce((s, [, w]) => s + w, 0)
      for (const [v, w] of list) {
        r -= w
        if (r < 0) return v
      }
      return list[list.length - 1][0]
    },
  }
}
export type Rng = ReturnType<typeof seededRng>
