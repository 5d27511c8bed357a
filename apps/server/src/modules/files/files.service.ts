import { isImageUpload, UPLOAD_TYPES, type UploadResult, type UploadSuffix } from '@aed/contracts/files'
import { fileTypeFromBuffer } from 'file-type'
import type { AppContext } from '../../context.ts'
import { invalid } from '../../lib/errors.ts'
import { storageKey } from '../../providers/storage/storage-provider.ts'

/** What the real bytes of each suffix must be, as file-type names them. */
const MAGIC: Record<Exclude<UploadSuffix, 'txt'>, string> = {
  png: 'png',
  jpg: 'jpg',
  jpeg: 'jpg',
  gif: 'gif',
  webp: 'webp',
  pdf: 'pdf',
  xlsx: 'xlsx',
}

const isUploadSuffix = (s: string): s is UploadSuffix => Object.hasOwn(UPLOAD_TYPES, s)

/** The suffixes a request allows: its comma list, narrowed to what the server accepts at all. */
export function allowedSuffixes(allowSuffix: string): UploadSuffix[] {
  const asked = allowSuffix.split(',').map((s) => s.trim().toLowerCase().replace(/^\./, ''))
  return [...new Set(asked.filter(isUploadSuffix))]
}

/** The base name of an uploaded file: no folders, no control characters, at most 200 characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? ''
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  return [...base.replace(/[\u0000-\u001f\u007f]/g, '').trim()].slice(-200).join('') || 'file'
}

/** True when the bytes are UTF-8 text without NUL characters. */
export function isPlainText(data: Uint8Array): boolean {
  if (data.includes(0)) return false
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(data)
    return true
  } catch {
    return false
  }
}

/**
 * Checks an upload against the allowed suffixes and its real content: the suffix must be
 * allowed, and the bytes must be what the suffix says (an executable renamed .png is refused).
 * An image upload (the console's jpg/jpeg/png list) is refused in the console's words.
 * Answers the suffix the file is stored under.
 */
export async function checkUpload(
  fileName: string,
  data: Uint8Array,
  allowSuffix: string,
): Promise<UploadSuffix> {
  const allowed = allowedSuffixes(allowSuffix)
  if (allowed.length === 0) {
    // allow_suffix named only types the server never takes: say which ones it does.
    throw invalid('ALLOW_SUFFIX_UNSUPPORTED', { suffixes: Object.keys(UPLOAD_TYPES).join('/') })
  }
  const dot = fileName.lastIndexOf('.')
  const suffix = dot > 0 ? fileName.slice(dot + 1).toLowerCase() : ''
  if (!isUploadSuffix(suffix) || !allowed.includes(suffix)) {
    if (isImageUpload(allowed)) throw invalid('IMAGE_INVALID')
    throw invalid('FILE_SUFFIX_NOT_ALLOWED', { suffixes: allowed.join('/') })
  }
  if (data.length === 0) throw invalid('FILE_EMPTY')
  const detected = await fileTypeFromBuffer(data)
  if (suffix === 'txt') {
    if (detected || !isPlainText(data)) throw invalid('FILE_TEXT_INVALID')
    return suffix
  }
  if (detected?.ext !== MAGIC[suffix]) {
    if (isImageUpload(allowed)) throw invalid('IMAGE_INVALID')
    throw invalid('FILE_CONTENT_MISMATCH', { suffix })
  }
  return suffix
}

/** Checks and stores an upload; answers where it can be fetched. */
export async function upload(
  ctx: AppContext,
  file: { filename: string; data: Uint8Array },
  allowSuffix: string,
): Promise<UploadResult> {
  const fileName = cleanFileName(file.filename)
  const suffix = await checkUpload(fileName, file.data, allowSuffix)
  const contentType = UPLOAD_TYPES[suffix]
  const body = Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data)
  const stored = await ctx.storage.put(storageKey(suffix), body, contentType)
  return { access_url: stored.url, file_name: fileName, size: file.data.length, content_type: contentType }
}

/** A stored upload's key in a URL of this server's /files/ route, or null for another host's URL. */
function fileKeyOf(url: string): string | null {
  const at = url.indexOf('/files/')
  return at < 0 ? null : url.slice(at + '/files/'.length)
}

/**
 * The images a record names (a submission's, an inspection's) must be uploads this server keeps (POST /api/v1/system/file/, POST /open-api/v1/file/): a URL
 * pointing anywhere else, or at nothing, is refused. An object store that this server does not
 * read (S3) is trusted by the URL's shape alone.
 */
export async function checkStoredImages(ctx: AppContext, urls: string[]) {
  const read = ctx.storage.read?.bind(ctx.storage)
  if (!read) return
  for (const url of urls) {
    const key = fileKeyOf(url)
    const file = key ? await read(key).catch(() => null) : null
    if (!file) throw invalid('REVIEW_IMAGE_MISSING')
    file.stream.destroy()
    if (!file.contentType.startsWith('image/png') && !file.contentType.startsWith('image/jpeg'))
      throw invalid('REVIEW_IMAGE_INVALID')
  }
}
