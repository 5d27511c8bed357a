import { Code, envelope, menuApi, permissionList, translate } from '@aed/contracts'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { brokerState, isMigrating } from '../../lib/readiness.ts'
import { ok } from '../../plugins/envelope.ts'
import { routes } from '../../plugins/route.ts'
import { buildMenu } from './menu.service.ts'
import { ping } from './system.repository.ts'

/** How long the readiness check waits for the database before calling it down. */
const READY_DB_TIMEOUT_MS = 2_000

const readiness = z.object({
  migrations: z.enum(['done', 'running']),
  database: z.enum(['up', 'down']),
  broker: z.enum(['up', 'off', 'down', 'starting']),
})

/** Whether the database answers within the timeout (and the link watchdog has not found it down). */
async function databaseUp(ctx: AppContext): Promise<boolean> {
  if (!ctx.database.link.up()) return false
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), READY_DB_TIMEOUT_MS)
  })
  try {
    return await Promise.race([ping(ctx.db).then(() => true), late])
  } catch {
    return false
  } finally {
    clearTimeout(timer)
  }
}

/** Liveness (/api/health), readiness (/api/ready) and the server-built menu. */
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
        // While the link watchdog finds PostgreSQL silent (db/link.ts) a ping would wait for TCP
        // to give up, and a restart would not bring the link back: the process is alive, and
        // /api/ready says what is not.
        if (ctx.database.link.up()) await ping(ctx.db)
        return ok(req, { database: ctx.database.kind, time: new Date().toISOString() })
      } catch (err) {
        req.log.error({ err }, 'health check failed')
        return reply
          .status(503)
          .send({ code: Code.INTERNAL, msg: translate('DB_UNAVAILABLE', langOf(req)), data: null })
      }
    },
  )

  app.get(
    '/api/ready',
    {
      config: { public: true },
      schema: {
        tags: ['system'],
        summary:
          'Readiness: code 0 when migrations are done, the database answers and the MQTT broker is connected ' +
          '(or off); else 503 with what is not ready in data',
        response: { 200: envelope(readiness), 503: envelope(readiness) },
      },
    },
    async (req, reply) => {
      const migrating = isMigrating(ctx.database)
      const data = {
        migrations: migrating ? ('running' as const) : ('done' as const),
        database: (await databaseUp(ctx)) ? ('up' as const) : ('down' as const),
        broker: brokerState(ctx),
      }
      if (!migrating && data.database === 'up' && (data.broker === 'up' || data.broker === 'off')) {
        return ok(req, data)
      }
      return reply.status(503).send({ code: Code.INTERNAL, msg: translate('NOT_READY', langOf(req)), data })
    },
  )

  routes(app, ['system'])(menuApi.menu, {}, ({ req, auth }) => buildMenu(permissionList(auth), langOf(req)))
}
