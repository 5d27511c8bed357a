import { z } from 'zod'
import { post } from './endpoint.ts'

/** Largest upload: the spec's 20M image limit, for every kind of file. */
export const UPLOAD_MAX_BYTES = 20 * 1024 * 1024

/**
 * Suffixes the server accepts at all, with the content type it stores and serves them under.
 * `allow_suffix` of a request narrows this list; it can never widen it (no svg or html: both
 * could carry script).
 */
export const UPLOAD_TYPES = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  txt: 'text/plain; charset=utf-8',
} as const
export type UploadSuffix = keyof typeof UPLOAD_TYPES

/** An image a record may name: a jpg, jpeg or png this server stores (an upload's access_url). */
export const STORED_IMAGE_URL = /^(https?:\/\/[^/\s]+)?\/files\/\S+\.(png|jpe?g)$/i

/** The suffixes the console's image uploads send as `allow_suffix`. */
export const IMAGE_ALLOW_SUFFIX = 'txt,png,jpeg,jpg'

/** What an image upload takes (spec 5): jpg, jpeg or png, 20M at most. */
export const IMAGE_SUFFIXES: readonly string[] = ['jpg', 'jpeg', 'png']
const IMAGE_CONTENT_TYPES: readonly string[] = ['image/jpeg', 'image/png']

const suffixOf = (name: string) => {
  const dot = name.lastIndexOf('.')
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : ''
}

/** Whether a file name ends in an image suffix (jpg, jpeg, png). */
export const isImageName = (name: string) => IMAGE_SUFFIXES.includes(suffixOf(name))

/**
 * Whether an upload's allowed suffixes are the console's image list: jpg, jpeg and png, with or
 * without the txt the spec sends beside them. Its refusals then use the image texts.
 */
export function isImageUpload(allowed: readonly string[]): boolean {
  const kinds = new Set(allowed.filter((s) => s !== 'txt'))
  return kinds.size === IMAGE_SUFFIXES.length && IMAGE_SUFFIXES.every((s) => kinds.has(s))
}

/**
 * Why the console refuses an image before sending it, or null: anything but a jpg, jpeg or png
 * (by name and, when the browser tells, by type), then anything over 20M.
 */
export function imageProblem(file: { name: string; type: string; size: number }) {
  if (!isImageName(file.name) || (file.type !== '' && !IMAGE_CONTENT_TYPES.includes(file.type)))
    return 'IMAGE_INVALID' as const
  if (file.size > UPLOAD_MAX_BYTES) return 'IMAGE_TOO_LARGE' as const
  return null
}

/** A file part as the server's multipart parser hands it over. */
export type UploadedPart = { filename: string; mimetype: string; data: Uint8Array }

const isUploadedPart = (v: unknown): v is UploadedPart => {
  const p = v as Partial<UploadedPart> | null
  return typeof p?.filename === 'string' && typeof p.mimetype === 'string' && p.data instanceof Uint8Array
}

/** A file field of a multipart form (documented as binary); `requiredKey` when the part is missing. */
export const filePart = (requiredKey: string) =>
  z.custom<UploadedPart>(isUploadedPart, { message: requiredKey }).meta({ type: 'string', format: 'binary' })

/** POST /api/v1/system/file/ (multipart/form-data). */
export const uploadForm = z.object({
  /** The file (a multipart file part). */
  file: filePart('FILE_REQUIRED'),
  /** Comma list of accepted suffixes, e.g. 'txt,png,jpeg,jpg'. */
  allow_suffix: z.string({ message: 'ALLOW_SUFFIX_REQUIRED' }).trim().min(1, 'ALLOW_SUFFIX_REQUIRED'),
})

export const uploadResultSchema = z.object({
  /** Where the file can be fetched: this server's /files/... or the object store's public URL. */
  access_url: z.string(),
  /** The name it was uploaded under. */
  file_name: z.string(),
  /** Bytes. */
  size: z.number().int(),
  content_type: z.string(),
})
export type UploadResult = z.infer<typeof uploadResultSchema>

/** Uploads: the body is multipart/form-data (the console sends a FormData with these fields). */
export const filesApi = {
  upload: post('/api/v1/system/file/', {
    summary: 'Upload one file (multipart: file, allow_suffix); the content must match the suffix',
    body: uploadForm,
    response: uploadResultSchema,
  }),
}
