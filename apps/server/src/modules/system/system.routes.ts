import { Code, envelope, menuApi, permissionList, translate } from '@aed/contracts'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { ok } from '../../plugins/envelope.ts'
import { routes } from '../../plugins/route.ts'
import { buildMenu } from './menu.service.ts'
import { ping } from './system.repository.ts'

/** Health and the server-built menu. */
export async function systemRoutes(base: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = base.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/health',
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        summary: 'Answers code 0 when the database answers',
        response: {
          200: envelope(z.object({ database: z.string(), time: z.string() })),
          503: envelope(z.null()),
        },
      },
    },
    async (req, reply) => {
      try {
        await ping(ctx.db)
        return ok(req, { database: ctx.database.kind, time: new Date().toISOString() })
      } catch (err) {
        req.log.error({ err }, 'health check failed')
        return reply
          .status(503)
          .send({ code: Code.INTERNAL, msg: translate('DB_UNAVAILABLE', langOf(req)), data: null })
      }
    },
  )

  routes(app, ['system'])(menuApi.menu, {}, ({ req, auth }) => buildMenu(permissionList(auth), langOf(req)))
}
