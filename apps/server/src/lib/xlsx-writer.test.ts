import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { columnName, writeXlsx, xmlText } from './xlsx-writer.ts'

async function written(headers: string[], rows: (string | number | null)[][]) {
  const out = new PassThrough()
  const chunks: Buffer[] = []
  out.on('data', (c: Buffer) => chunks.push(c))
  const ended = new Promise((r) => out.on('end', r))
  async function* batches() {
    for (let i = 0; i < rows.length; i += 2) yield rows.slice(i, i + 2)
  }
  const count = await writeXlsx(
    out,
    { sheetName: '设备列表', creator: 'AED Cloud', headers, widths: headers.map(() => 12), now: new Date() },
    batches(),
  )
  await ended
  return { buffer: Buffer.concat(chunks), count }
}

describe('writeXlsx', () => {
  it('writes a real workbook: exceljs reads back the header, text, numbers, gaps and escaped characters', async () => {
    const rows = [
      ['A64000001', 87, '广州市天河区 <北门> & "东侧"'],
      ['A64000002', null, 'tab\there, bell\u0007 gone'],
      ['A64000003', 0, ''],
    ]
    const { buffer, count } = await written(['设备SN', '电量', '地址'], rows)
    expect(count).toBe(3)
    const { default: ExcelJS } = await import('exceljs')
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(buffer as unknown as ArrayBuffer)
    const sheet = book.getWorksheet('设备列表')
    expect(sheet).toBeDefined()
    const values = (n: number) => (sheet!.getRow(n).values as unknown[]).slice(1)
    expect(values(1)).toEqual(['设备SN', '电量', '地址'])
    expect(sheet!.getRow(1).getCell(1).font?.bold).toBe(true)
    expect(values(2)).toEqual(['A64000001', 87, '广州市天河区 <北门> & "东侧"'])
    expect(values(3)).toEqual(['A64000002', undefined, 'tab\there, bell gone'])
    expect(values(4)).toEqual(['A64000003', 0])
    expect(sheet!.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 })
  })

  it('keeps every row whole across chunks: long cells, multi-byte text and one longer than a chunk', async () => {
    // Rows of about 1 KB of UTF-8 each fill many 64 KB chunks; the 70,000-character cell is
    // longer than a chunk and goes on its own between two others.
    const long = '长'.repeat(70_000)
    const rows: (string | number | null)[][] = []
    for (let i = 0; i < 300; i++) rows.push([`SN${i}`, i, `浙江省杭州市🚑${'路'.repeat(300)}${i}`])
    rows.splice(150, 0, ['LONG', -1, long])
    const { buffer, count } = await written(['设备SN', '序号', '地址'], rows)
    expect(count).toBe(301)
    const { default: ExcelJS } = await import('exceljs')
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(buffer as unknown as ArrayBuffer)
    const sheet = book.getWorksheet('设备列表')!
    const read = [] as unknown[][]
    sheet.eachRow((r, n) => {
      if (n > 1) read.push((r.values as unknown[]).slice(1))
    })
    expect(read).toEqual(rows)
  })

  it('waits for a slow reader: what is written but unread stays bounded', async () => {
    const out = new PassThrough({ highWaterMark: 16 * 1024 })
    let given = 0
    async function* batches() {
      // Incompressible text (hex of random bytes), so the deflate's output is as large as its input.
      const crypto = await import('node:crypto')
      for (let b = 0; b < 200; b++) {
        given++
        yield Array.from({ length: 100 }, () => [crypto.randomBytes(500).toString('hex')])
      }
    }
    const done = writeXlsx(
      out,
      { sheetName: 's', creator: 'c', headers: ['h'], widths: [10], now: new Date() },
      batches(),
    )
    // Nobody reads: the writer must stop after a little, not produce the whole 20 MB.
    await new Promise((r) => setTimeout(r, 300))
    const held = out.writableLength + out.readableLength
    expect(held).toBeLessThan(2 * 1024 * 1024)
    expect(given).toBeLessThan(20)
    // Reading lets it finish.
    out.resume()
    expect(await done).toBe(20_000)
  })

  it('names columns past Z and escapes XML', () => {
    expect([columnName(0), columnName(25), columnName(26), columnName(701), columnName(702)]).toEqual([
      'A',
      'Z',
      'AA',
      'ZZ',
      'AAA',
    ])
    expect(xmlText('a<b>&"c"\u0000')).toBe('a&lt;b&gt;&amp;&quot;c&quot;')
  })
})
