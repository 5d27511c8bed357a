import { formatDate } from './time.ts'
import { inflatedSize } from './zip-size.ts'

/** One data row of an uploaded sheet: its row number in the sheet and its cells as text. */
export type SheetRow = { row: number; cells: string[] }

/** Why an upload is not a filled-in template: wrong header or not an .xlsx, too many rows, none. */
export class SheetReadError extends Error {
  constructor(readonly reason: 'template' | 'too_many' | 'empty') {
    super(`sheet refused: ${reason}`)
  }
}

/** A cell as the text it shows: rich text joined, a formula's result, a link's text, a date as the console writes it. */
export function cellText(v: unknown): string {
  if (v === null || v === undefined) return ''
  if (typeof v === 'string') return v.trim()
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  if (v instanceof Date) return formatDate(v)
  const o = v as { richText?: { text: string }[]; result?: unknown; text?: unknown }
  if (Array.isArray(o.richText))
    return o.richText
      .map((p) => p.text)
      .join('')
      .trim()
  if ('result' in o) return cellText(o.result)
  if ('text' in o) return cellText(o.text)
  return ''
}

/** What an uploaded template may inflate to: far above 10,000 rows of three columns. */
const MAX_INFLATED_BYTES = 16 * 1024 * 1024

/**
 * Reads the first sheet of an uploaded template: the header row must be `headers`, and at most
 * `maxRows` data rows may follow. The file is unpacked whole only after its real inflated size
 * is counted, so a zip bomb costs no more than MAX_INFLATED_BYTES. Blank rows are kept (as null)
 * so row numbers stay the sheet's. (exceljs's streaming reader loses the shared strings now and
 * then when the worksheet comes first in the zip, as exceljs itself writes it.)
 */
export async function readTemplateSheet(
  data: Uint8Array,
  headers: readonly string[],
  maxRows: number,
): Promise<(SheetRow | null)[]> {
  if (inflatedSize(data, MAX_INFLATED_BYTES) === null) throw new SheetReadError('template')
  const { default: ExcelJS } = await import('exceljs')
  const book = new ExcelJS.Workbook()
  try {
    await book.xlsx.load(Buffer.from(data) as unknown as ArrayBuffer)
  } catch {
    throw new SheetReadError('template')
  }
  // The first sheet is the one to fill in; the rest are the template's notes.
  const sheet = book.worksheets[0]
  if (!sheet) throw new SheetReadError('template')
  // row.values is 1-based and sparse: empty cells are holes, not values.
  const textOf = (values: unknown) => headers.map((_, i) => cellText((values as unknown[])[i + 1]))
  const header = textOf(sheet.getRow(1).values)
  if (headers.some((h, i) => header[i] !== h)) throw new SheetReadError('template')
  const rows: (SheetRow | null)[] = []
  let count = 0
  for (let n = 2; n <= sheet.rowCount; n++) {
    const cells = textOf(sheet.getRow(n).values)
    if (cells.every((v) => v === '')) continue
    if (++count > maxRows) throw new SheetReadError('too_many')
    while (rows.length < n - 2) rows.push(null)
    rows.push({ row: n, cells })
  }
  if (count === 0) throw new SheetReadError('empty')
  return rows
}
