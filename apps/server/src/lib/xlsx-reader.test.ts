import ExcelJS from 'exceljs'
import JSZip from 'jszip'
import { describe, expect, it } from 'vitest'
import { readTemplateSheet, SheetReadError } from './xlsx-reader.ts'

const HEADERS = ['设备SN', '型号', '固件版本']

async function book(rows: unknown[][]) {
  const wb = new ExcelJS.Workbook()
  const sheet = wb.addWorksheet('设备导入')
  for (const row of rows) sheet.addRow(row)
  return Buffer.from(await wb.xlsx.writeBuffer())
}

/** The same workbook with its entries in the given order of paths first (the rest after). */
async function reordered(file: Buffer, first: (path: string) => boolean) {
  const zip = await JSZip.loadAsync(file)
  const paths = Object.keys(zip.files).filter((p) => !zip.files[p].dir)
  const out = new JSZip()
  for (const p of [...paths.filter(first), ...paths.filter((p) => !first(p))])
    out.file(p, await zip.files[p].async('uint8array'))
  return out.generateAsync({ type: 'uint8array', compression: 'DEFLATE' })
}

const reason = (p: Promise<unknown>) =>
  p.then(
    () => 'read',
    (e) => (e instanceof SheetReadError ? e.reason : String(e)),
  )

describe('readTemplateSheet', () => {
  it('reads the rows with their sheet row numbers, blank rows as null, cells as text', async () => {
    const file = await book([
      HEADERS,
      ['A64000001', 'A64', 1.2],
      [],
      ['  A64000002 ', null, { richText: [{ text: 'V' }, { text: '2' }] }],
    ])
    expect(await readTemplateSheet(file, HEADERS, 10)).toEqual([
      { row: 2, cells: ['A64000001', 'A64', '1.2'] },
      null,
      { row: 4, cells: ['A64000002', '', 'V2'] },
    ])
  })

  it('reads a workbook whose worksheet comes before xl/workbook.xml in the zip', async () => {
    // exceljs's own writer sometimes orders the entries so; its reader then failed on the name.
    const file = await reordered(
      await book([HEADERS, ['A64000001']]),
      (p) => p.startsWith('xl/worksheets/') || p.includes('sharedStrings') || p.includes('_rels'),
    )
    const names = Object.keys((await JSZip.loadAsync(file)).files)
    expect(names.indexOf('xl/worksheets/sheet1.xml')).toBeLessThan(names.indexOf('xl/workbook.xml'))
    expect(await readTemplateSheet(file, HEADERS, 10)).toEqual([{ row: 2, cells: ['A64000001', '', ''] }])
    expect(
      await reason(
        readTemplateSheet(
          await reordered(await book([HEADERS]), (p) => !p.endsWith('workbook.xml')),
          HEADERS,
          10,
        ),
      ),
    ).toBe('empty')
  })

  it('refuses another header, an empty sheet, too many rows and a file that is not a zip', async () => {
    expect(
      await reason(readTemplateSheet(await book([['SN', '型号', '固件版本'], ['A64000001']]), HEADERS, 10)),
    ).toBe('template')
    expect(await reason(readTemplateSheet(await book([HEADERS, [], []]), HEADERS, 10))).toBe('empty')
    const many = [HEADERS, ...Array.from({ length: 4 }, (_, i) => [`A6400000${i}`])]
    expect(await reason(readTemplateSheet(await book(many), HEADERS, 3))).toBe('too_many')
    expect(await reason(readTemplateSheet(await book(many), HEADERS, 4))).toBe('read')
    expect(await reason(readTemplateSheet(Buffer.from('not a zip'), HEADERS, 10))).toBe('template')
  })
})
