import { devSmsApi } from '@aed/contracts/dev-sms'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { routes } from '../../plugins/route.ts'
import { readOutbox } from '../../providers/sms/local-sms.ts'

/**
 * GET /api/v1/dev/sms (DEV_SMS_OUTBOX=1 only; app.ts registers it then and never otherwise): a
 * system super administrator reads what the local SMS provider "sent", texts and links included,
 * after an id. The simulator's phones poll it for their alert links (npm run simulate --
 * --responders); the SMS themselves stay in the server log as before.
 */
export async function devSmsRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['dev'])
  route(devSmsApi.outbox, { systemSuper: true }, async ({ query }) => ({
    resource: await readOutbox(ctx.db, query.after, query.limit),
  }))
}
