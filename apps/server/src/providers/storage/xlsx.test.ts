import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PassThrough } from 'node:stream'
import { afterAll, describe, expect, it } from 'vitest'
import type { AppContext } from '../../context.ts'
import { AppError, invalid } from '../../lib/errors.ts'
import { writeXlsx, type XlsxCells } from '../../lib/xlsx-writer.ts'
import { diskStorage } from './local-storage.ts'
import { streamXlsx, writeXlsxOffThread } from './xlsx.ts'

const sheet = {
  sheetName: '设备列表',
  creator: 'AED Cloud',
  headers: ['SN', '序号', '地址'],
  widths: [12, 8, 30],
  now: new Date(0),
}

/** `batches` batches of `size` rows, multi-byte text and numbers. */
async function* source(batches: number, size: number): AsyncGenerator<XlsxCells[]> {
  for (let b = 0; b < batches; b++)
    yield Array.from({ length: size }, (_, i) => [`SN${b}-${i}`, b * size + i, `浙江省杭州市 <${i}> & 路`])
}

/** Everything written to `out` once it ends. */
function collect(out: PassThrough): Promise<Buffer> {
  const chunks: Buffer[] = []
  out.on('data', (c: Buffer) => chunks.push(c))
  return new Promise((resolve, reject) => {
    out.on('end', () => resolve(Buffer.concat(chunks)))
    out.on('error', reject)
  })
}

describe('writeXlsxOffThread', () => {
  it('writes the same file, byte for byte, as writeXlsx in this thread', async () => {
    const here = new PassThrough()
    const hereBytes = collect(here)
    expect(await writeXlsx(here, sheet, source(30, 400))).toBe(12_000)
    const there = new PassThrough()
    const thereBytes = collect(there)
    expect(await writeXlsxOffThread(there, sheet, source(30, 400))).toBe(12_000)
    const [a, b] = await Promise.all([hereBytes, thereBytes])
    expect(a.length).toBeGreaterThan(50_000)
    expect(b.equals(a)).toBe(true)
  })

  it("fails with the reader's own error part way, and ends the reader and the worker", async () => {
    let ended = false
    async function* failing(): AsyncGenerator<XlsxCells[]> {
      try {
        yield* source(3, 100)
        throw invalid('EXPORT_TOO_LARGE')
      } finally {
        ended = true
      }
    }
    const out = new PassThrough()
    out.resume()
    const err = await writeXlsxOffThread(out, sheet, failing()).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AppError)
    expect((err as AppError).key).toBe('EXPORT_TOO_LARGE')
    expect(ended).toBe(true)
    expect(out.writableEnded).toBe(false)
  })

  it('waits for a slow output: the worker holds back what is not yet written', async () => {
    const out = new PassThrough({ highWaterMark: 16 * 1024 })
    let given = 0
    async function* incompressible(): AsyncGenerator<XlsxCells[]> {
      for (let b = 0; b < 200; b++) {
        given++
        yield Array.from({ length: 100 }, () => [crypto.randomBytes(500).toString('hex')])
      }
    }
    const done = writeXlsxOffThread(out, { ...sheet, headers: ['h'], widths: [10] }, incompressible())
    // Nobody reads: the 20 MB must not pile up in `out` (nor be read ahead from the source).
    await new Promise((r) => setTimeout(r, 1000))
    expect(out.writableLength + out.readableLength).toBeLessThan(2 * 1024 * 1024)
    expect(given).toBeLessThan(30)
    out.resume()
    expect(await done).toBe(20_000)
  })

  it('fails when the output is destroyed, without waiting for a drain that never comes', async () => {
    // The storage side listens for the error (streamXlsx's output does the same).
    const out = new PassThrough({ highWaterMark: 1024 }).on('error', () => {})
    const done = writeXlsxOffThread(out, sheet, source(50, 400)).catch((e: unknown) => e)
    await new Promise((r) => setTimeout(r, 300))
    out.destroy(new Error('storage gone'))
    expect(await done).toBeInstanceOf(Error)
  })
})

describe('streamXlsx', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-xlsx-'))
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }))
  const ctx = (kind: 'pglite' | 'postgres') =>
    ({
      database: { kind },
      storage: diskStorage(root, '/files'),
      clock: { now: () => new Date(0) },
    }) as unknown as AppContext
  const columns = [
    { header: 'SN', width: 12, value: (r: { sn: string; n: number }) => r.sn },
    { header: '序号', width: 8, value: (r: { sn: string; n: number }) => r.n },
  ]
  async function* rows(batches: number) {
    for (let b = 0; b < batches; b++)
      yield Array.from({ length: 500 }, (_, i) => ({ sn: `SN${b}-${i}`, n: b * 500 + i }))
  }
  const fileOf = (url: string) =>
    fs.readFileSync(path.join(root, url.replace(/^\/files\//, '').replace(/\?.*$/, '')))

  it('stores the same workbook whether written here (PostgreSQL) or in a worker (PGlite, several batches)', async () => {
    const here = await streamXlsx(ctx('postgres'), 'a.xlsx', 's', columns, rows(4))
    const there = await streamXlsx(ctx('pglite'), 'a.xlsx', 's', columns, rows(4))
    expect([here.count, there.count]).toEqual([2000, 2000])
    expect(fileOf(there.file_url).equals(fileOf(here.file_url))).toBe(true)
    const { default: ExcelJS } = await import('exceljs')
    const book = new ExcelJS.Workbook()
    await book.xlsx.load(fileOf(there.file_url) as unknown as ArrayBuffer)
    const s = book.getWorksheet('s')!
    expect(s.rowCount).toBe(2001)
    expect((s.getRow(2001).values as unknown[]).slice(1)).toEqual(['SN3-499', 1999])
  })

  it('keeps no file, finished or temporary, when the rows fail part way', async () => {
    const files = () =>
      (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => /\.(xlsx|tmp)$/.test(f))
    const before = files()
    async function* failing() {
      yield* rows(3)
      throw invalid('EXPORT_TOO_LARGE')
    }
    await expect(streamXlsx(ctx('pglite'), 'a.xlsx', 's', columns, failing())).rejects.toBeInstanceOf(
      AppError,
    )
    expect(files()).toEqual(before)
  })
})
