import ExcelJS from 'exceljs'
import JSZip from 'jszip'
import { describe, expect, it } from 'vitest'
import { inflatedSize } from './zip-size.ts'

const zipOf = (files: Record<string, string | Uint8Array>, compression: 'DEFLATE' | 'STORE' = 'DEFLATE') => {
  const zip = new JSZip()
  for (const [name, body] of Object.entries(files)) zip.file(name, body)
  return zip.generateAsync({ type: 'uint8array', compression })
}

describe('inflatedSize', () => {
  it('counts what every entry inflates to, deflated or stored', async () => {
    const files = { 'a.xml': '<a>'.repeat(1000), 'b/c.xml': 'hello' }
    expect(inflatedSize(await zipOf(files), 10_000)).toBe(3005)
    expect(inflatedSize(await zipOf(files, 'STORE'), 10_000)).toBe(3005)
    const wb = new ExcelJS.Workbook()
    wb.addWorksheet('s').addRow(['设备SN'])
    expect(inflatedSize(new Uint8Array(await wb.xlsx.writeBuffer()), 1_000_000)).toBeGreaterThan(1000)
  })

  it('refuses a zip that inflates past the limit, however small it is packed', async () => {
    const bomb = await zipOf({ 'xl/worksheets/sheet1.xml': new Uint8Array(20 * 1024 * 1024) })
    expect(bomb.length).toBeLessThan(100_000)
    expect(inflatedSize(bomb, 16 * 1024 * 1024)).toBeNull()
    expect(inflatedSize(await zipOf({ a: 'x'.repeat(100), b: 'y'.repeat(100) }), 150)).toBeNull()
  })

  it('refuses what is not a whole zip', async () => {
    const good = await zipOf({ 'a.xml': '<a/>' })
    expect(inflatedSize(Buffer.from('not a zip at all, just some text'), 1000)).toBeNull()
    expect(inflatedSize(good.subarray(0, good.length - 10), 1000)).toBeNull()
    expect(inflatedSize(good.subarray(20), 1000)).toBeNull()
  })
})
