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
