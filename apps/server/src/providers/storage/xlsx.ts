import { PassThrough, type Writable } from 'node:stream'
import { Worker } from 'node:worker_threads'
import type { Database } from '../../db/client.ts'
import type { Clock } from '../../lib/clock.ts'
import type { ParentMessage, WriterData, WriterMessage } from '../../lib/xlsx-thread.ts'
import { writeXlsx, type XlsxCells, type XlsxSheet } from '../../lib/xlsx-writer.ts'
import { putStream, type StorageProvider, storageKey } from './storage-provider.ts'

/** A column of an export: header text, width in characters and how to read a row. */
export type XlsxColumn<T> = { header: string; width: number; value: (row: T) => string | number | null }

/**
 * The rows of an export: an array, or batches read while the file is written (a keyset reader),
 * so a large export never holds more than one batch.
 */
export type XlsxRows<T> = readonly T[] | AsyncIterable<readonly T[]>

/**
 * What an export needs of the app (the app's context has it): where the file goes, the time it
 * is made, and which database reads the rows.
 */
export type XlsxExportContext = { storage: StorageProvider; clock: Clock; database: Pick<Database, 'kind'> }

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/**
 * Streams rows into a real .xlsx (bold frozen header row, widths) through the storage provider
 * as they are read (lib/xlsx-writer.ts): memory stays at one batch however many rows there are. Answers the
 * URL the browser downloads it from (saving as `fileName`) and the number of rows.
 */
export async function streamXlsx<T>(
  ctx: XlsxExportContext,
  fileName: string,
  sheetName: string,
  columns: XlsxColumn<T>[],
  rows: XlsxRows<T>,
): Promise<{ file_url: string; count: number }> {
  // Errors on `out` reach the caller through `stored` or the throw below; none may go unheard
  // while the storage side is still opening its target.
  const out = new PassThrough().on('error', () => {})
  const stored = putStream(ctx.storage, storageKey('xlsx'), out, XLSX_TYPE)
  // A storage failure ends the export at once instead of leaving the writer waiting for a drain.
  const failed = stored.then(
    () => new Promise<never>(() => {}),
    (err) => {
      throw err
    },
  )
  failed.catch(() => {})
  const batches: AsyncIterable<readonly T[]> | Iterable<readonly T[]> = Array.isArray(rows)
    ? [rows as readonly T[]]
    : (rows as AsyncIterable<readonly T[]>)
  async function* cells() {
    for await (const batch of batches) yield batch.map((r) => columns.map((c) => c.value(r)))
  }
  const sheet: XlsxSheet = {
    sheetName,
    creator: 'AED Cloud',
    headers: columns.map((c) => c.header),
    widths: columns.map((c) => c.width),
    now: ctx.clock.now(),
  }
  let count = 0
  try {
    count = await Promise.race([
      (async () => {
        // On PGlite the database runs in this thread: a sheet of more than one batch is built and
        // deflated in a worker, so that work overlaps the next reads instead of taking turns with
        // them. On PostgreSQL the reads run in the database server already (and a worker's own
        // heap would be memory the export does not need), so nothing is read ahead to decide.
        if (ctx.database.kind !== 'pglite') return writeXlsx(out, sheet, cells())
        const { more, rest } = await peek(cells())
        return (more ? writeXlsxOffThread : writeXlsx)(out, sheet, rest)
      })(),
      failed,
    ])
  } catch (err) {
    // Nothing half-written is kept: the storage side removes its temporary file.
    out.destroy(err as Error)
    await stored.catch(() => {})
    throw err
  }
  const file = await stored
  return { file_url: `${file.url}?download=${encodeURIComponent(fileName)}`, count }
}

/**
 * The first two batches of `source` read ahead: whether there is more than one, and every batch
 * (those two first) to write.
 */
async function peek<B>(source: AsyncIterable<B>) {
  const it = source[Symbol.asyncIterator]()
  const head: B[] = []
  for (let i = 0; i < 2; i++) {
    const r = await it.next()
    if (r.done) break
    head.push(r.value)
  }
  async function* rest() {
    try {
      yield* head
      for (;;) {
        const r = await it.next()
        if (r.done) return
        yield r.value
      }
    } finally {
      await it.return?.()
    }
  }
  return { more: head.length > 1, rest: rest() }
}

/**
 * `writeXlsx` in a worker thread (lib/xlsx-thread.ts) fed from this one: the worker asks for a
 * batch, which is read here while it writes the one before; each deflated chunk comes back to
 * be written to `out` (waiting on its drain) before the worker sends the next. Ends `out`.
 * Answers the number of rows; a failure of the reader, the worker or `out` ends the worker.
 */
export async function writeXlsxOffThread(
  out: Writable,
  sheet: XlsxSheet,
  rows: AsyncIterable<XlsxCells[]>,
): Promise<number> {
  const it = rows[Symbol.asyncIterator]()
  const data: WriterData = { entry: new URL('../../lib/xlsx-thread.ts', import.meta.url).href, sheet }
  const worker = new Worker(new URL('../../lib/ts-thread.mjs', import.meta.url), { workerData: data })
  const send = (m: ParentMessage) => worker.postMessage(m)
  let finished = false
  // Chunks written while `out` was full, acknowledged at its next drain.
  let owed = 0
  const drained = () => {
    for (; owed > 0; owed--) send({ ack: true })
  }
  try {
    const count = await new Promise<number>((resolve, reject) => {
      worker.once('error', reject)
      worker.once('exit', (code) => reject(new Error(`The export's writer stopped (exit code ${code})`)))
      // Destroyed by the caller (its storage failed) or by a failed write: nothing will drain.
      out.once('close', () => reject(new Error("The export's output closed before the end")))
      worker.on('message', (m: WriterMessage) => {
        if ('want' in m) {
          it.next().then((r) => send(r.done ? { end: true } : { rows: r.value }), reject)
        } else if ('chunk' in m) {
          // Written at once, acknowledged at once, or at the next drain while `out` is full (the
          // worker sends a bounded number unacknowledged, so what waits here is bounded).
          const full = !out.write(Buffer.from(m.chunk.buffer, m.chunk.byteOffset, m.chunk.byteLength))
          if (owed === 0 && !full) send({ ack: true })
          else {
            if (owed === 0) out.once('drain', drained)
            owed++
          }
        } else if ('done' in m) {
          out.end()
          resolve(m.done)
        } else reject(new Error(m.error))
      })
    })
    finished = true
    return count
  } finally {
    await worker.terminate()
    // Stopped early: the reader ends too (after the read it may have in flight).
    if (!finished) await it.return?.()
  }
}

/** `streamXlsx` answering the download URL only. */
export async function exportXlsx<T>(
  ctx: XlsxExportContext,
  fileName: string,
  sheetName: string,
  columns: XlsxColumn<T>[],
  rows: XlsxRows<T>,
) {
  return (await streamXlsx(ctx, fileName, sheetName, columns, rows)).file_url
}

/** Builds a small .xlsx in memory (the import's failure file): header row bold, then the rows. */
export async function xlsxBuffer(
  sheetName: string,
  headers: string[],
  rows: (string | number | null)[][],
  widths: number[] = [],
): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs')
  const book = new ExcelJS.Workbook()
  book.creator = 'AED Cloud'
  const sheet = book.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] })
  sheet.columns = headers.map((_, i) => ({ width: widths[i] ?? 20 }))
  sheet.addRow(headers).font = { bold: true }
  for (const row of rows) sheet.addRow(row)
  return Buffer.from(await book.xlsx.writeBuffer())
}
