import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { UPLOAD_MAX_BYTES } from '@aed/contracts/files'
import { openApi } from '@aed/contracts/open-api'
import { INSTALL_IMGS_MAX } from '@aed/contracts/review'
import { type OpenApiRequest, UsageError } from './client.ts'

// The public's submissions from the command line (docs/open-api.md 5.7): `upload <file>` sends an
// image as a browser's FormData would, signed over the exact multipart bytes; `--image` on
// `volunteer` and `third-party-aed` uploads first and puts the access_url where it belongs.

export type UploadFile = { filename: string; type: string; data: Uint8Array }

const IMAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg' }

/** A part's content type by its suffix (the server reads the bytes and refuses what is not an image). */
export const imageTypeOf = (filename: string) =>
  IMAGE_TYPES[path.extname(filename).slice(1).toLowerCase()] ?? 'application/octet-stream'

/** A file name in Content-Disposition, escaped as a browser's FormData escapes it. */
const quoted = (name: string) => name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')

const randomBoundary = () => `----AEDIntegrator${crypto.randomBytes(12).toString('hex')}`

/**
 * POST /open-api/v1/file/ with one part `file`: the body is the bytes that are signed and sent.
 * A random boundary is drawn again in the unlikely case the file contains it.
 */
export function uploadRequest(file: UploadFile, boundary?: string): OpenApiRequest {
  const data = Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength)
  let b = boundary ?? randomBoundary()
  while (boundary === undefined && data.includes(`--${b}`)) b = randomBoundary()
  const head = `--${b}\r\nContent-Disposition: form-data; name="file"; filename="${quoted(file.filename)}"\r\nContent-Type: ${file.type}\r\n\r\n`
  return {
    method: 'POST',
    target: openApi.fileUpload.path,
    body: Buffer.concat([Buffer.from(head), data, Buffer.from(`\r\n--${b}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${b}`,
  }
}

/** A file to upload, its path relative to `cwd` (where `npm run` was typed: INIT_CWD). */
export function readUpload(file: string, cwd = process.cwd()): UploadFile {
  const full = path.resolve(cwd, file)
  const data = fs.readFileSync(full)
  if (data.length > UPLOAD_MAX_BYTES)
    throw new Error(`${file}: ${data.length} bytes; an image is at most 20M`)
  return { filename: path.basename(full), type: imageTypeOf(full), data }
}

/** `upload <file>`. */
export function uploadCommand(words: string[], cwd?: string): OpenApiRequest {
  if (words.length !== 1) throw new UsageError('usage: upload <file>')
  return uploadRequest(readUpload(words[0], cwd))
}

/**
 * What `--image` fills once its files are uploaded: a volunteer's certificate (cert_img, has_cert
 * 1), a third-party AED's site photos (install_imgs, after any the JSON names). Checked before
 * anything is uploaded.
 */
export function imageFiller(
  command: string | undefined,
  body: string | Uint8Array | undefined,
  files: string[],
): (urls: string[]) => string {
  if ((command !== 'volunteer' && command !== 'third-party-aed') || typeof body !== 'string')
    throw new UsageError('--image goes with volunteer or third-party-aed')
  const form = JSON.parse(body) as unknown
  if (!form || typeof form !== 'object' || Array.isArray(form))
    throw new UsageError(`${command}: the body must be a JSON object`)
  const fields = form as Record<string, unknown>
  if (command === 'volunteer') {
    if (files.length > 1) throw new UsageError('volunteer: one --image, the first-aid certificate')
    if (fields.has_cert === 0)
      throw new UsageError('volunteer: --image is the certificate, but has_cert is 0')
    return ([url]) => JSON.stringify({ ...fields, has_cert: 1, cert_img: url })
  }
  const named = Array.isArray(fields.install_imgs) ? (fields.install_imgs as unknown[]) : []
  if (named.length + files.length > INSTALL_IMGS_MAX)
    throw new UsageError(
      `third-party-aed: at most ${INSTALL_IMGS_MAX} site photos, install_imgs and --image together`,
    )
  return (urls) => JSON.stringify({ ...fields, install_imgs: [...named, ...urls] })
}
