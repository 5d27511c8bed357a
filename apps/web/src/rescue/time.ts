/** The moment of a server time: 'YYYY-MM-DD HH:mm:ss' is China time (the spec's format), else ISO. */
export function parseServerTime(value: string): number {
  const spec = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d(?::\d\d)?)$/.exec(value)
  return Date.parse(spec ? `${spec[1]}T${spec[2]}+08:00` : value)
}

/** Whole minutes from `from` to `now` (never negative: clocks differ by a few seconds). */
export function minutesSince(from: number, now: number): number {
  return Math.max(0, Math.floor((now - from) / 60_000))
}
