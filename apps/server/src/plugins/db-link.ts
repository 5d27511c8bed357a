import { Code, translate } from '@aed/contracts'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { AppContext } from '../context.ts'
import { langOf } from '../lib/lang.ts'

/** What answers without the database: the probes, the metrics, and the console's built files. */
const WITHOUT_DATABASE = /^\/(?:api\/health|api\/ready|metrics)(?:[/?]|$)/
const CONSOLE_FILE = /^\/(?:assets\/[^?]+|[^/?]+\.(?:html|svg|wav|ico))(?:\?|$)/

/** Whether `req` can be answered while the database link is down. */
export function servesWithoutDatabase(req: Pick<FastifyRequest, 'method' | 'url'>): boolean {
  if (WITHOUT_DATABASE.test(req.url)) return true
  return (req.method === 'GET' || req.method === 'HEAD') && CONSOLE_FILE.test(req.url)
}

/**
 * While the database link is down (db/link.ts) every request that needs it is refused at once
 * with 503 in the envelope, instead of waiting on a database that does not answer: nginx then
 * counts this instance as failed and sends the next requests to another (proxy_next_upstream
 * http_503, docs/deploy.md), devices send their messages again, and consoles reconnect elsewhere.
 */
export const dbLinkPlugin = fp(async (app: FastifyInstance, { ctx }: { ctx: AppContext }) => {
  app.addHook('onRequest', async (req, reply) => {
    if (ctx.database.link.up() || servesWithoutDatabase(req)) return
    return reply
      .status(503)
      .send({ code: Code.INTERNAL, msg: translate('DB_UNAVAILABLE', langOf(req)), data: null })
  })
})
