/**
 * Where the server reads "now" for scheduling and freshness checks (jobs, device timestamps,
 * deadlines). Production uses the system clock; tests use a TestClock they move by hand, so
 * no test waits for real time to pass.
 */
export type Clock = {
  now(): Date
}

export const systemClock: Clock = {
  now: () => new Date(),
}

/** A clock that can be moved forward by hand (a test's, a development server's). */
export type MovableClock = Clock & { advance(ms: number): void }

/** Whether a clock can be moved forward by hand. */
export function isMovable(clock: Clock): clock is MovableClock {
  return typeof (clock as Partial<MovableClock>).advance === 'function'
}

/**
 * The development clock (DEV_CLOCK=1): the system clock, plus whatever it has been moved forward
 * by. Time keeps running, so a server on it behaves as on the real clock between two moves.
 */
export class OffsetClock implements MovableClock {
  #offsetMs = 0

  now(): Date {
    return new Date(Date.now() + this.#offsetMs)
  }

  advance(ms: number): void {
    this.#offsetMs += ms
  }
}

/** A clock that stands still until a test sets or advances it. */
export class TestClock implements Clock {
  #ms: number

  constructor(start: Date | string | number = '2026-01-01T00:00:00.000Z') {
    this.#ms = new Date(start).getTime()
  }

  now(): Date {
    return new Date(this.#ms)
  }

  set(to: Date | string | number): void {
    this.#ms = new Date(to).getTime()
  }

  advance(ms: number): void {
    this.#ms += ms
  }
}
