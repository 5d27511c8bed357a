import type { AppContext } from '../context.ts'
import { storageKey } from '../providers/storage/storage-provider.ts'

/** A column of an export: header text, width in characters and how to read a row. */
export type XlsxColumn<T> = { header: string; width: number; value: (row: T) => string | number | null }

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'

/**
 * Writes rows to a real .xlsx (bold frozen header row, widths) through the storage provider and
 * answers the URL the browser downloads it from, saving as `fileName`.
 */
export async function exportXlsx<T>(
  ctx: AppContext,
  fileName: string,
  sheetName: string,
  columns: XlsxColumn<T>[],
  rows: T[],
) {
  // exceljs is large: loaded only when someone exports.
  const { default: ExcelJS } = await import('exceljs')
  const book = new ExcelJS.Workbook()
  book.creator = 'AED Cloud'
  const sheet = book.addWorksheet(sheetName, { views: [{ state: 'frozen', ySplit: 1 }] })
  sheet.columns = columns.map((c, i) => ({ header: c.header, key: String(i), width: c.width }))
  sheet.getRow(1).font = { bold: true }
  for (const row of rows) sheet.addRow(columns.map((c) => c.value(row)))
  const buffer = Buffer.from(await book.xlsx.writeBuffer())
  const stored = await ctx.storage.put(storageKey('xlsx'), buffer, XLSX_TYPE)
  return `${stored.url}?download=${encodeURIComponent(fileName)}`
}
