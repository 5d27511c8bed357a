import ExcelJS from 'exceljs'
import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'

// Spreadsheets as the import and export tests use them: a filled import file and its upload
// form, and an export's file downloaded and read back.

/** An import file: a sheet named `sheetName` with the header row, then these rows. */
export async function importWorkbook(sheetName: string, header: string[], rows: unknown[][]) {
  const book = new ExcelJS.Workbook()
  const sheet = book.addWorksheet(sheetName)
  sheet.addRow(header)
  for (const row of rows) sheet.addRow(row)
  return Buffer.from(await book.xlsx.writeBuffer())
}

/** The multipart body of an import: the file as `import_file`, named `name`, and the form's fields. */
export function importForm(file: Buffer, name: string, fields: Record<string, string> = {}) {
  const body = new FormData()
  body.append('import_file', new Blob([new Uint8Array(file)]), name)
  for (const [k, v] of Object.entries(fields)) body.append(k, v)
  return body
}

/** A workbook's first sheet as rows of cell values (`includeEmpty`: empty rows kept). */
export async function sheetRows(data: Buffer | ArrayBuffer, o: { includeEmpty?: boolean } = {}) {
  const book = new ExcelJS.Workbook()
  await book.xlsx.load(data as unknown as ArrayBuffer)
  const sheet = book.worksheets[0]
  const rows: unknown[][] = []
  sheet.eachRow({ includeEmpty: o.includeEmpty ?? false }, (row) => {
    rows.push((row.values as unknown[]).slice(1))
  })
  return { sheet, rows }
}

/** Downloads an export's file through GET /files/* (it must be there) and reads its first sheet. */
export async function downloadSheet(app: FastifyInstance, fileUrl: string) {
  const file = await app.inject({ method: 'GET', url: fileUrl })
  expect(file.statusCode).toBe(200)
  const { sheet, rows } = await sheetRows(file.rawPayload)
  return { sheet, disposition: file.headers['content-disposition'], rows }
}
