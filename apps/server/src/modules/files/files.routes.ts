import { Code, translate } from '@aed/contracts'
import { filesApi, UPLOAD_MAX_BYTES } from '@aed/contracts/files'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { acceptUploads } from '../../lib/multipart.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './files.service.ts'

const tags = ['files']

const fileParams = z.object({ '*': z.string() })
const fileQuery = z.object({
  /** Download under this name (Content-Disposition: attachment), e.g. 设备列表.xlsx. */
  download: z.string().trim().min(1).max(200).optional(),
})

/** Uploads (POST /api/v1/system/file/) and the files this server stores itself (GET /files/*). */
export async function filesRoutes(base: FastifyInstance, { ctx }: { ctx: AppContext }) {
  // The upload parser and its 20 MB limit apply in this plugin only.
  await acceptUploads(base, UPLOAD_MAX_BYTES, 'FILE_TOO_LARGE')
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
      const file = await ctx.storage.read?.(req.params['*'])
      if (!file) {
        return reply
          .status(404)
          .type('application/json; charset=utf-8')
          .send(
            JSON.stringify({
              code: Code.NOT_FOUND,
              msg: translate('FILE_NOT_FOUND', langOf(req)),
              data: null,
            }),
          )
      }
      reply
        .type(file.contentType)
        .header('content-length', file.size)
        .header('cache-control', 'public, max-age=604800')
        // Uploads are checked, but a stored file must never run as a page of this origin.
        .header('x-content-type-options', 'nosniff')
      if (!file.contentType.startsWith('application/pdf')) {
        reply.header(
          'content-security-policy',
          "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox",
        )
      }
      if (req.query.download) {
        reply.header(
          'content-disposition',
          `attachment; filename*=UTF-8''${encodeURIComponent(req.query.download)}`,
        )
      }
      return reply.send(file.stream)
    },
  )
}
