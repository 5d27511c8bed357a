import { once } from 'node:events'
import { Writable } from 'node:stream'
import { parentPort, workerData } from 'node:worker_threads'
import { writeXlsx, type XlsxCells, type XlsxSheet } from './xlsx-writer.ts'

// The writing half of a large export, in a worker thread (lib/xlsx.ts starts it): the sheet's
// XML is built and deflated here while the main thread reads the next batch. The messages are
// the ones `WriterMessage` and `ParentMessage` name; one batch and one chunk are in flight at a
// time, so memory stays bounded on both sides.

/** What the worker says: give it a batch, take a chunk of the file, it is done, it failed. */
export type WriterMessage = { want: true } | { chunk: Uint8Array } | { done: number } | { error: string }

/** What the parent says: a batch of rows, no more rows, a chunk was written. */
export type ParentMessage = { rows: XlsxCells[] } | { end: true } | { ack: true }

/** The worker's start: the sheet (a Date survives the structured clone) and its own module. */
export type WriterData = { entry: string; sheet: XlsxSheet }

const port = parentPort!
const { sheet } = workerData as WriterData

let onRows: ((m: ParentMessage) => void) | null = null
/** Chunks sent and not yet written by the parent, and the write waiting for one of them. */
let unwritten = 0
let blocked: (() => void) | null = null
port.on('message', (m: ParentMessage) => {
  if ('ack' in m) {
    unwritten--
    const resume = blocked
    blocked = null
    resume?.()
  } else {
    const take = onRows
    onRows = null
    take?.(m)
  }
})

function ask(): Promise<ParentMessage> {
  const next = new Promise<ParentMessage>((resolve) => {
    onRows = resolve
  })
  post({ want: true })
  return next
}

function post(m: WriterMessage, transfer?: ArrayBuffer[]) {
  port.postMessage(m, transfer)
}

/** The batches as the parent sends them: the next one is asked for before this one is written. */
async function* batches(): AsyncGenerator<XlsxCells[]> {
  let next = ask()
  for (;;) {
    const m = await next
    if (!('rows' in m)) return
    next = ask()
    yield m.rows
  }
}

/**
 * Chunks that may be on their way to the parent unwritten: it takes them between its reads
 * (on PGlite a read holds its thread), so waiting for each one's turn would stall the writer.
 */
const WINDOW = 16

// Each chunk is copied into a buffer of its own and moved, not cloned: the deflate's output
// chunks share one buffer it goes on filling.
const out = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    const copy = new Uint8Array(chunk)
    post({ chunk: copy }, [copy.buffer])
    if (++unwritten < WINDOW) callback()
    else blocked = () => callback()
  },
})

try {
  const count = await writeXlsx(out, sheet, batches())
  if (!out.writableFinished) await once(out, 'finish')
  post({ done: count })
} catch (err) {
  post({ error: err instanceof Error ? err.message : String(err) })
}
