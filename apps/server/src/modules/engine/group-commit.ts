/** One caller's rows waiting for a group commit, and how to answer it. */
export type Waiter<R, A> = { rows: R[]; resolve: (answer: A) => void; reject: (e: unknown) => void }

/**
 * Group commit: whatever arrives while the previous group is being written goes into the next,
 * up to `maxRows` rows. `write` stores a group in one transaction and answers each waiter; when
 * it throws, `alone` handles each waiter of that group on its own (so one caller's bad row never
 * refuses the others).
 */
export function groupCommit<R, A>(opts: {
  maxRows: number
  write: (group: Waiter<R, A>[]) => Promise<void>
  alone: (waiter: Waiter<R, A>) => Promise<void>
}): { submit(rows: R[]): Promise<A> } {
  const queue: Waiter<R, A>[] = []
  let running = false
  let scheduled = false

  async function drain() {
    if (running) return
    running = true
    try {
      while (queue.length) {
        const group: Waiter<R, A>[] = []
        let n = 0
        while (queue.length && n < opts.maxRows) {
          const w = queue.shift() as Waiter<R, A>
          group.push(w)
          n += w.rows.length
        }
        try {
          await opts.write(group)
        } catch (e) {
          if (group.length === 1) await opts.alone(group[0]).catch((err) => group[0].reject(err ?? e))
          else for (const w of group) await opts.alone(w).catch((err) => w.reject(err))
        }
      }
    } finally {
      running = false
    }
  }

  return {
    submit(rows) {
      return new Promise<A>((resolve, reject) => {
        queue.push({ rows, resolve, reject })
        if (!running && !scheduled) {
          scheduled = true
          setImmediate(() => {
            scheduled = false
            void drain()
          })
        }
      })
    },
  }
}
