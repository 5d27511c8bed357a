import crypto from 'node:crypto'
import type { Readable } from 'node:stream'
import { UPLOAD_TYPES } from '@aed/contracts/files'

/** A stored object: its key and the URL clients fetch it from. */
export type StoredFile = { key: string; url: string }

/** An object opened for reading: what GET /files/* streams back. */
export type OpenedFile = { stream: Readable; size: number; contentType: string }

/** Keeps uploaded and generated files. The local default needs no account anywhere. */
export interface StorageProvider {
  readonly name: string
  /** Stores `body` under `key` (see storageKey), replacing what was there. */
  put(key: string, body: Buffer, contentType: string): Promise<StoredFile>
  /**
   * Opens a stored object for GET /files/*; only providers whose files this server serves itself
   * have it, and it never opens a private key (isPrivateKey).
   */
  read?(key: string): Promise<OpenedFile | null>
  /** Opens any stored object, private ones too, with the server's own access (signed links). */
  readPrivate?(key: string): Promise<OpenedFile | null>
  /**
   * Stores a stream under `key` without holding it in memory (exports). A failed or destroyed
   * stream stores nothing. Providers without it are written through `putStream()` below.
   */
  putStream?(key: string, body: Readable, contentType: string): Promise<StoredFile>
}

/** Stores a stream through the provider's streaming put, or buffered for a provider without one. */
export async function putStream(
  storage: StorageProvider,
  key: string,
  body: Readable,
  contentType: string,
): Promise<StoredFile> {
  if (storage.putStream) return storage.putStream(key, body, contentType)
  const chunks: Buffer[] = []
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Uint8Array))
  return storage.put(key, Buffer.concat(chunks), contentType)
}

/**
 * Keys are relative paths of plain segments with one final extension: no '..', no hidden
 * files, nothing a file system or an object store would read as anything but a name.
 */
export const STORAGE_KEY = /^[a-z0-9][a-z0-9_-]*(\/[a-z0-9][a-z0-9_-]*)*\.[a-z0-9]{1,8}$/i

/** A new unguessable key `<yyyy>/<mm>/<uuid>.<ext>` for a file. */
export function storageKey(ext: string, now = new Date()): string {
  const month = String(now.getUTCMonth() + 1).padStart(2, '0')
  return `${now.getUTCFullYear()}/${month}/${crypto.randomUUID()}.${ext.toLowerCase()}`
}

/**
 * Where the files devices upload are kept (the ECG after a rescue: health data). No public URL
 * serves this prefix; a member who sees the rescue gets a short-lived signed link instead.
 */
export const PRIVATE_PREFIX = 'device-files/'

/** True for a key that only a signed link may serve (in any case: some file systems ignore it). */
export const isPrivateKey = (key: string) => key.toLowerCase().startsWith(PRIVATE_PREFIX)

/** The key of a file a device uploaded (private). */
export const deviceFileKey = (sn: string, fileId: string) => `${PRIVATE_PREFIX}${sn}/${fileId}.bin`

/**
 * The private key inside the URL `put` answered for a device file (rows keep that URL, from before
 * the files were private too): null when the URL names no private file.
 */
export function privateKeyOf(url: string): string | null {
  const key = /(?:^|\/)(device-files\/[^/?#]+\/[^/?#]+)$/.exec(url)?.[1]
  return key && STORAGE_KEY.test(key) ? key : null
}

/** Throws unless the key is safe to use as a path and an object name. */
export function assertKey(key: string): void {
  if (!STORAGE_KEY.test(key)) throw new Error(`Invalid storage key: ${key}`)
}

// What uploads may be, plus what the server itself generates (csv, zip).
const SERVED_TYPES: Record<string, string> = {
  ...UPLOAD_TYPES,
  csv: 'text/csv; charset=utf-8',
  zip: 'application/zip',
}

/** The content type a stored file is served with, from its extension. */
export function contentTypeOf(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1).toLowerCase()
  return SERVED_TYPES[ext] ?? 'application/octet-stream'
}
