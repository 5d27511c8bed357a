import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import {
  assertKey,
  contentTypeOf,
  isPrivateKey,
  type OpenedFile,
  STORAGE_KEY,
  type StorageProvider,
} from './storage-provider.ts'

/**
 * Files on local disk under `root` (DATA_DIR/files), served back by this server at
 * `baseUrl/<key>` (private keys only through a signed link). Writes go to a temporary name first,
 * so a reader never sees half a file.
 */
export function diskStorage(root: string, baseUrl: string): StorageProvider {
  const base = baseUrl.replace(/\/+$/, '')
  const full = (key: string) => {
    const p = path.resolve(root, key)
    // The key pattern already forbids '..'; this keeps the promise even if the pattern changes.
    if (!p.startsWith(path.resolve(root) + path.sep)) throw new Error(`Key escapes the storage root: ${key}`)
    return p
  }
  async function open(key: string): Promise<OpenedFile | null> {
    if (!STORAGE_KEY.test(key)) return null
    const target = full(key)
    const stat = await fs.promises.stat(target).catch(() => null)
    if (!stat?.isFile()) return null
    return { stream: fs.createReadStream(target), size: stat.size, contentType: contentTypeOf(key) }
  }
  return {
    name: 'local',
    async put(key, body) {
      assertKey(key)
      const target = full(key)
      await fs.promises.mkdir(path.dirname(target), { recursive: true })
      const tmp = `${target}.${process.pid}.${Date.now()}.tmp`
      await fs.promises.writeFile(tmp, body)
      await fs.promises.rename(tmp, target)
      return { key, url: `${base}/${key}` }
    },
    async putStream(key, body) {
      assertKey(key)
      const target = full(key)
      await fs.promises.mkdir(path.dirname(target), { recursive: true })
      const tmp = `${target}.${process.pid}.${crypto.randomUUID()}.tmp`
      try {
        await pipeline(body, fs.createWriteStream(tmp))
      } catch (err) {
        await fs.promises.rm(tmp, { force: true })
        throw err
      }
      await fs.promises.rename(tmp, target)
      return { key, url: `${base}/${key}` }
    },
    read: (key) => (isPrivateKey(key) ? Promise.resolve(null) : open(key)),
    readPrivate: open,
  }
}
