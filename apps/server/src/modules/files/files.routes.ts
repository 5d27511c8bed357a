import { Code, translate } from '@aed/contracts'
import { filesApi, isImageName, UPLOAD_MAX_BYTES } from '@aed/contracts/files'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../context.ts'
import { SIGNED_FILES_PATH } from '../../lib/file-links.ts'
import { langOf } from '../../lib/lang.ts'
import { acceptUploads } from '../../lib/multipart.ts'
import { routes } from '../../plugins/route.ts'
import type { OpenedFile } from '../../providers/storage/storage-provider.ts'
import * as service from './files.service.ts'

const tags = ['files']

const fileParams = z.object({ '*': z.string() })
const fileQuery = z.object({
  /** Download under this name (Content-Disposition: attachment), e.g. 设备列表.xlsx. */
  download: z.string().trim().min(1).max(200).optional(),
})
// Any text: a link that is not this server's is refused by its signature, never by a schema.
const signedQuery = z.object({
  expires: z.string().optional(),
  download: z.string().optional(),
  signature: z.string().optional(),
})

/** An answer in the envelope with no data: a refusal says nothing about the file. */
function refuse(req: FastifyRequest, reply: FastifyReply, status: 403 | 404) {
  const [code, key] =
    status === 403 ? ([Code.FORBIDDEN, 'FORBIDDEN'] as const) : ([Code.NOT_FOUND, 'FILE_NOT_FOUND'] as const)
  return reply
    .status(status)
    .type('application/json; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(JSON.stringify({ code, msg: translate(key, langOf(req)), data: null }))
}

/** Headers of a stored file's body: never run as a page of this origin, saved under `download`. */
function fileHeaders(reply: FastifyReply, file: OpenedFile, download: string | undefined) {
  reply
    .type(file.contentType)
    .header('content-length', file.size)
    // Uploads are checked, but a stored file must never run as a page of this origin.
    .header('x-content-type-options', 'nosniff')
  if (!file.contentType.startsWith('application/pdf')) {
    reply.header(
      'content-security-policy',
      "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
    )
  }
  if (download) {
    reply.header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(download)}`)
  }
}

/**
 * Uploads (POST /api/v1/system/file/), the files this server stores itself (GET /files/*), and
 * private files by a signed link (GET /private-files/*).
 */
export async function filesRoutes(base: FastifyInstance, { ctx }: { ctx: AppContext }) {
  // The upload parser and its 20 MB limit apply in this plugin only; an image over it is
  // refused in the console's words (the limit is met before allow_suffix may have been read).
  await acceptUploads(base, UPLOAD_MAX_BYTES, (name) =>
    isImageName(name) ? 'IMAGE_TOO_LARGE' : 'FILE_TOO_LARGE',
  )
  const app = base.withTypeProvider<ZodTypeProvider>()

  routes(base, tags)(
    filesApi.upload,
    {
      consumes: ['multipart/form-data'],
      oplog: {
        type: '上传文件',
        content: (_, d) => `上传文件：${d.file_name}（${d.size}字节）`,
      },
      done: 'UPLOAD_OK',
    },
    ({ body }) => service.upload(ctx, body.file, body.allow_suffix),
  )

  app.get(
    '/files/*',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'A stored file (local storage only); names are unguessable, there is no listing',
        params: fileParams,
        querystring: fileQuery,
      },
    },
    async (req, reply) => {
      // Private keys (device files) open nothing here: read() refuses them.
      const file = await ctx.storage.read?.(req.params['*'])
      if (!file) return refuse(req, reply, 404)
      fileHeaders(reply, file, req.query.download)
      reply.header('cache-control', 'public, max-age=604800')
      return reply.send(file.stream)
    },
  )

  app.get(
    `${SIGNED_FILES_PATH}/*`,
    {
      config: { public: true },
      schema: {
        tags,
        summary:
          'A private file (a rescue’s ECG) by a signed link the API handed out; works for 5 minutes, then answers 403',
        params: fileParams,
        querystring: signedQuery,
      },
    },
    async (req, reply) => {
      const key = req.params['*']
      // Wrong, expired and tampered links answer alike: the answer tells nothing of the file.
      if (!ctx.fileLinks.verify(key, req.query, ctx.clock.now())) return refuse(req, reply, 403)
      const file = await ctx.storage.readPrivate?.(key)
      if (!file) return refuse(req, reply, 404)
      fileHeaders(reply, file, req.query.download || undefined)
      // Health data: no cache keeps it, no page it links to learns the link.
      reply.header('cache-control', 'private, no-store').header('referrer-policy', 'no-referrer')
      return reply.send(file.stream)
    },
  )
}
