import type { DatabaseLink } from '../db/link.ts'

/** A database link (db/link.ts) the test turns down and up: `set` tells its listeners as the watchdog does. */
export function switchedLink() {
  let up = true
  const listeners = new Set<(up: boolean) => void>()
  const link: DatabaseLink = {
    up: () => up,
    onChange(fn) {
      listeners.add(fn)
      return () => void listeners.delete(fn)
    },
  }
  return {
    link,
    set(next: boolean) {
      if (next === up) return
      up = next
      for (const fn of listeners) fn(next)
    },
  }
}
