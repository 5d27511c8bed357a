import { once } from 'node:events'
import type { Writable } from 'node:stream'
import zlib from 'node:zlib'

// A streaming .xlsx writer for large exports: SpreadsheetML written as text, deflated into a
// ZIP as it goes, with backpressure. exceljs builds an object per row and cell and was the
// export's cost at 100,000 rows (1.7 million cells); this writes each row as one string.

/** Writes to `out`, waiting when it asks to. */
async function put(out: Writable, chunk: Buffer) {
  if (!out.write(chunk)) await once(out, 'drain')
}

type Entry = { name: Buffer; crc: number; csize: number; usize: number; offset: number }

/**
 * Text is encoded into chunks of this many bytes before it is deflated. Small enough that what
 * is built for a chunk dies young (a batch's XML joined into one string went to V8's large
 * object space and was most of the export's 190 MB of uncollected garbage), large enough that
 * the deflate's round trips to the thread pool stay few.
 */
const CHUNK = 64 * 1024

/**
 * One deflated entry being written: text goes into a chunk buffer, full chunks to the deflate,
 * which works on the thread pool while the next chunk is built (up to four chunks queued).
 */
export class EntryWriter {
  // Node hands stream options on to the deflate's Transform; its types leave them out.
  #deflate = zlib.createDeflateRaw({ level: 1, writableHighWaterMark: 4 * CHUNK } as zlib.ZlibOptions)
  #pump: Promise<void>
  #buf = Buffer.allocUnsafe(CHUNK)
  #used = 0
  #crc = 0
  #usize = 0
  #csize = 0

  constructor(
    private readonly raw: (b: Buffer) => Promise<void>,
    private readonly done: (sizes: { crc: number; csize: number; usize: number }) => void,
  ) {
    this.#pump = (async () => {
      for await (const chunk of this.#deflate) {
        this.#csize += (chunk as Buffer).length
        await this.raw(chunk as Buffer)
      }
    })()
    // A failure of the output ends the writer's next wait; it must not go unhandled before that.
    this.#pump.catch(() => {})
  }

  /**
   * Adds text. Answers a promise only when a full chunk went to the deflate and it asked to
   * wait (the common case costs no await per row); the caller awaits it before writing more.
   */
  write(text: string): Promise<void> | undefined {
    // A UTF-16 code unit is at most 3 bytes of UTF-8, so this bound is never short.
    if (this.#used + text.length * 3 <= CHUNK) {
      this.#used += this.#buf.write(text, this.#used)
      return undefined
    }
    const sent = this.#send()
    if (text.length * 3 <= CHUNK) {
      this.#used = this.#buf.write(text, 0)
      return sent
    }
    // Longer than a chunk: sent on its own, after what came before it.
    return (async () => {
      await sent
      await this.#push(Buffer.from(text, 'utf8'))
    })()
  }

  /** Sends the chunk built so far (if any) and starts a new one. */
  #send(): Promise<void> | undefined {
    if (this.#used === 0) return undefined
    const chunk = this.#buf.subarray(0, this.#used)
    this.#buf = Buffer.allocUnsafe(CHUNK)
    this.#used = 0
    return this.#push(chunk)
  }

  #push(b: Buffer): Promise<void> | undefined {
    this.#crc = zlib.crc32(b, this.#crc)
    this.#usize += b.length
    if (this.#deflate.write(b)) return undefined
    return Promise.race([once(this.#deflate, 'drain').then(() => undefined), this.#pump])
  }

  /** Ends the entry: its last chunk deflated and written, then its sizes and checksum. */
  async end() {
    await this.#send()
    this.#deflate.end()
    await this.#pump
    const sizes = { crc: this.#crc >>> 0, csize: this.#csize, usize: this.#usize }
    const dd = Buffer.alloc(16)
    dd.writeUInt32LE(0x08074b50, 0)
    dd.writeUInt32LE(sizes.crc, 4)
    dd.writeUInt32LE(sizes.csize, 8)
    dd.writeUInt32LE(sizes.usize, 12)
    await this.raw(dd)
    this.done(sizes)
  }
}

/**
 * A ZIP archive written front to back (entries with data descriptors, deflated), so nothing of
 * an entry is held: what is deflated goes straight on to `out`.
 */
export class ZipStream {
  #offset = 0
  #entries: Entry[] = []
  constructor(private readonly out: Writable) {}

  async #raw(b: Buffer) {
    this.#offset += b.length
    await put(this.out, b)
  }

  /** Starts an entry; write its content with `write`, then `end` it before the next. */
  async entry(name: string): Promise<EntryWriter> {
    const nameBuf = Buffer.from(name, 'utf8')
    const offset = this.#offset
    const header = Buffer.alloc(30)
    header.writeUInt32LE(0x04034b50, 0)
    header.writeUInt16LE(20, 4) // version needed
    header.writeUInt16LE(0x0808, 6) // data descriptor follows; UTF-8 names
    header.writeUInt16LE(8, 8) // deflate
    header.writeUInt32LE(0x00210000, 10) // 1980-01-01 00:00
    header.writeUInt16LE(nameBuf.length, 26)
    await this.#raw(Buffer.concat([header, nameBuf]))
    return new EntryWriter(
      (b) => this.#raw(b),
      (sizes) => this.#entries.push({ name: nameBuf, offset, ...sizes }),
    )
  }

  /** A whole small entry at once. */
  async file(name: string, text: string) {
    const e = await this.entry(name)
    await e.write(text)
    await e.end()
  }

  /** Writes the central directory; the archive is complete. */
  async finish() {
    const start = this.#offset
    for (const e of this.#entries) {
      const h = Buffer.alloc(46)
      h.writeUInt32LE(0x02014b50, 0)
      h.writeUInt16LE(20, 4)
      h.writeUInt16LE(20, 6)
      h.writeUInt16LE(0x0808, 8)
      h.writeUInt16LE(8, 10)
      h.writeUInt32LE(0x00210000, 12)
      h.writeUInt32LE(e.crc, 16)
      h.writeUInt32LE(e.csize, 20)
      h.writeUInt32LE(e.usize, 24)
      h.writeUInt16LE(e.name.length, 28)
      h.writeUInt32LE(e.offset, 42)
      await this.#raw(Buffer.concat([h, e.name]))
    }
    const end = Buffer.alloc(22)
    end.writeUInt32LE(0x06054b50, 0)
    end.writeUInt16LE(this.#entries.length, 8)
    end.writeUInt16LE(this.#entries.length, 10)
    end.writeUInt32LE(this.#offset - start, 12)
    end.writeUInt32LE(start, 16)
    await this.#raw(end)
    this.out.end()
  }
}

// Characters XML 1.0 cannot hold at all (controls other than tab, newline, return) are dropped;
// the four markup characters are escaped.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what it matches
const SPECIAL = /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }
// biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what it matches
const ESCAPE_ALL = /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g

/** Text as XML character data or an attribute value (most text needs nothing: returned as is). */
export function xmlText(s: string): string {
  if (!SPECIAL.test(s)) return s
  return s.replace(ESCAPE_ALL, (c) => ESCAPES[c] ?? '')
}

/** The column letters of a 0-based index: A … Z, AA … */
export function columnName(i: number): string {
  let n = i + 1
  let name = ''
  while (n > 0) {
    const r = (n - 1) % 26
    name = String.fromCharCode(65 + r) + name
    n = Math.floor((n - 1) / 26)
  }
  return name
}

/** One row: numbers as numbers, text inline, empty cells left out (style 1 is the header's bold). */
function row(values: (string | number | null)[], n: number, letters: string[], style: 0 | 1): string {
  const s = style ? ' s="1"' : ''
  let out = `<row r="${n}">`
  for (let i = 0; i < values.length; i++) {
    const v = values[i]
    if (v === null || v === '') continue
    const r = `${letters[i] ?? columnName(i)}${n}`
    if (typeof v === 'number' && Number.isFinite(v)) out += `<c r="${r}"${s}><v>${v}</v></c>`
    else out += `<c r="${r}"${s} t="inlineStr"><is><t xml:space="preserve">${xmlText(String(v))}</t></is></c>`
  }
  return `${out}</row>`
}

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>`
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`
const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`

/** A row's cell values, in column order (null and '' leave the cell out). */
export type XlsxCells = (string | number | null)[]

/** What a sheet is besides its rows: its name, the file's creator and time, the header and widths. */
export type XlsxSheet = { sheetName: string; creator: string; headers: string[]; widths: number[]; now: Date }

/**
 * Writes one sheet: a bold, frozen header row, column widths, then the rows in the batches
 * `rows` yields (each row an array of cell values). Ends `out` when done.
 */
export async function writeXlsx(
  out: Writable,
  opts: XlsxSheet,
  rows: AsyncIterable<XlsxCells[]>,
): Promise<number> {
  const zip = new ZipStream(out)
  await zip.file('[Content_Types].xml', CONTENT_TYPES)
  await zip.file('_rels/.rels', ROOT_RELS)
  await zip.file(
    'docProps/core.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:creator>${xmlText(opts.creator)}</dc:creator><dcterms:created xsi:type="dcterms:W3CDTF">${opts.now.toISOString().slice(0, 19)}Z</dcterms:created></cp:coreProperties>`,
  )
  await zip.file(
    'xl/workbook.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="${xmlText(opts.sheetName.slice(0, 31))}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  )
  await zip.file('xl/_rels/workbook.xml.rels', WORKBOOK_RELS)
  await zip.file('xl/styles.xml', STYLES)
  const letters = opts.headers.map((_, i) => columnName(i))
  const sheet = await zip.entry('xl/worksheets/sheet1.xml')
  const cols = opts.widths
    .map((w, i) => `<col min="${i + 1}" max="${i + 1}" width="${w}" customWidth="1"/>`)
    .join('')
  await sheet.write(
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><cols>${cols}</cols><sheetData>${row(opts.headers, 1, letters, 1)}`,
  )
  let count = 0
  for await (const batch of rows) {
    for (const r of batch) {
      count++
      const wait = sheet.write(row(r, count + 1, letters, 0))
      if (wait) await wait
    }
  }
  await sheet.write('</sheetData></worksheet>')
  await sheet.end()
  await zip.finish()
  return count
}
