import { PassThrough } from 'node:stream'
import type { AppContext } from '../context.ts'
import { putStream, storageKey } from '../providers/storage/storage-provider.ts'
import { writeXlsx } from './xlsx-writer.ts'

/** A column of an export: header text, width in characters and how to read a row. */
export type XlsxColumn<T> = { header: string; width: number; value: (row: T) => string | number | null }

/**
 * The rows of an export: an array, or batches read while the file is written (a keyset reader),
 * so a large export never holds more than one batch.
 */
export type XlsxRows<T> = readonly T[] | AsyncIterable<readonly T[]>

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/**
 * Streams rows into a real .xlsx (bold frozen header row, widths) through the storage provider
 * as they are read (lib/xlsx-writer.ts): memory stays at one batch however many rows there are. Answers the
 * URL the browser downloads it from (saving as `fileName`) and the number of rows.
 */
export async function streamXlsx<T>(
  ctx: AppContext,
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
  let count = 0
  try {
    count = await Promise.race([
      writeXlsx(
        out,
        {
          sheetName,
          creator: 'AED Cloud',
          headers: columns.map((c) => c.header),
          widths: columns.map((c) => c.width),
          now: ctx.clock.now(),
        },
        cells(),
      ),
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

/** `streamXlsx` answering the download URL only. */
export async function exportXlsx<T>(
  ctx: AppContext,
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
