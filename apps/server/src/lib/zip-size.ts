import { inflateRawSync } from 'node:zlib'

/**
 * The bytes a zip inflates to, counted by inflating every entry (a declared size can lie), or
 * null when it is not a zip we read (damaged, encrypted, zip64, another method) or inflates past
 * `limit`: the guard before a library unpacks an uploaded file whole.
 */
export function inflatedSize(zip: Uint8Array, limit: number): number | null {
  const buf = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength)
  // The end-of-central-directory record is the last 22 bytes plus a comment of up to 64 KiB.
  let end = -1
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 0xffff); i--)
    if (buf.readUInt32LE(i) === 0x06054b50) {
      end = i
      break
    }
  if (end < 0) return null
  const entries = buf.readUInt16LE(end + 10)
  let at = buf.readUInt32LE(end + 16)
  let total = 0
  for (let n = 0; n < entries; n++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== 0x02014b50) return null
    const flags = buf.readUInt16LE(at + 8)
    const method = buf.readUInt16LE(at + 10)
    const compressed = buf.readUInt32LE(at + 20)
    const local = buf.readUInt32LE(at + 42)
    at += 46 + buf.readUInt16LE(at + 28) + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32)
    if (flags & 1 || compressed === 0xffffffff || local + 30 > buf.length) return null
    if (buf.readUInt32LE(local) !== 0x04034b50) return null
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28)
    if (start + compressed > buf.length) return null
    const data = buf.subarray(start, start + compressed)
    if (method === 0) total += compressed
    else if (method === 8) {
      try {
        total += inflateRawSync(data, { maxOutputLength: Math.max(1, limit - total + 1) }).length
      } catch {
        return null
      }
    } else return null
    if (total > limit) return null
  }
  return total
}
