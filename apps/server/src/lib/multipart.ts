import type { MessageKey } from '@aed/contracts'
import multipart, { type MultipartFile } from '@fastify/multipart'
import type { FastifyInstance } from 'fastify'
import { AppError, invalid } from './errors.ts'

const hasStatus = (err: unknown) => typeof (err as { statusCode?: unknown }).statusCode === 'number'

/**
 * Accepts one-file multipart bodies in this plugin only (its own size limit): the file part is
 * buffered as `{filename, mimetype, data}` for the body schema, a file over `maxBytes` answers
 * `tooLarge` (a message key, or one chosen by the file's name), and a body the parser cannot read (no boundary, cut short) is bad input, not a
 * server error. Anything else goes up as is.
 */
export async function acceptUploads(
  base: FastifyInstance,
  maxBytes: number,
  tooLarge: MessageKey | ((fileName: string) => MessageKey),
) {
  const reachedHandler = new WeakSet<object>()
  base.addHook('preHandler', async (req) => {
    reachedHandler.add(req)
  })
  base.setErrorHandler((err, req) => {
    if (req.isMultipart() && !reachedHandler.has(req) && !(err instanceof AppError) && !hasStatus(err)) {
      throw invalid('INVALID_INPUT')
    }
    throw err
  })
  await base.register(multipart, {
    attachFieldsToBody: 'keyValues',
    onFile: async (part: MultipartFile) => {
      try {
        part.value = { filename: part.filename, mimetype: part.mimetype, data: await part.toBuffer() }
      } catch (err) {
        if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw invalid(typeof tooLarge === 'function' ? tooLarge(part.filename) : tooLarge)
        }
        throw err
      }
    },
    limits: { fileSize: maxBytes, files: 1, fields: 10, fieldSize: 10_000, parts: 12 },
  })
}
