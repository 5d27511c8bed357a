import { afterEach, beforeEach, expect, it } from 'vitest'
import { type LaneStep, runLanes } from './outbox.ts'

// The outbox's lanes (drainAlone on PostgreSQL) without a database: steps are plain functions,
// so the order of lanes starting, failing and ending is set by the test.

let unhandled: unknown[] = []
const hear = (reason: unknown) => unhandled.push(reason)
beforeEach(() => {
  unhandled = []
  process.on('unhandledRejection', hear)
})
afterEach(() => {
  process.off('unhandledRejection', hear)
})

/** Resolves after the event loop has turned once: Node reports unhandled rejections by then. */
const turn = () => new Promise((r) => setImmediate(r))

it('runs at most `most` lanes at once and `limit` steps in all, counting those done', async () => {
  let rows = 10
  let now = 0
  let peak = 0
  const step = async (more: () => void): Promise<LaneStep> => {
    if (rows === 0) return 'none'
    const row = --rows
    more()
    now++
    peak = Math.max(peak, now)
    await turn()
    now--
    return row % 3 === 0 ? 'failed' : 'done'
  }
  const r = await runLanes(4, 7, step)
  expect(rows).toBe(3)
  expect(peak).toBe(4)
  // Rows 9 to 3 taken; 9, 6 and 3 failed.
  expect(r.done).toBe(4)
})

it('a lane that fails while an earlier one still runs: rejected with its error after all end, and never unhandled', async () => {
  let release!: () => void
  const gate = new Promise<void>((r) => {
    release = r
  })
  let calls = 0
  let firstEnded = false
  const step = async (more: () => void): Promise<LaneStep> => {
    calls++
    // As a drain's step does: it reads its row before it starts another lane.
    await Promise.resolve()
    if (calls === 1) {
      more()
      await gate
      return 'done'
    }
    if (calls === 2) throw new Error('Cannot use a pool after calling end on the pool')
    firstEnded = true
    return 'none'
  }
  const run = runLanes(4, 10, step)
  const settled = run.then(
    () => null,
    (e: Error) => e.message,
  )
  await turn()
  await turn()
  // The second lane has failed; the first still waits. Its failure must already be heard.
  expect(calls).toBe(2)
  expect(unhandled).toEqual([])
  release()
  expect(await settled).toBe('Cannot use a pool after calling end on the pool')
  expect(firstEnded).toBe(true)
  await turn()
  expect(unhandled).toEqual([])
})
