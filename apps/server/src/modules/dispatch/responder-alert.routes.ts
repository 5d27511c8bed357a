import { responderAlertApi } from '@aed/contracts/dispatch'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { routes } from '../../plugins/route.ts'
import { actOnAlert, readAlert } from './responder-alert.service.ts'

/**
 * The responder's alert page's calls (/responder-api): no sign-in, the link's token is the
 * permission (256 random bits, kept hashed). Not in /api/docs' member calls' tag.
 */
export async function responderAlertRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['responder alerts'])
  route(responderAlertApi.alert, { public: true }, ({ params }) => readAlert(ctx, params.token))
  route(responderAlertApi.act, { public: true, oplog: false }, ({ params, body }) =>
    actOnAlert(ctx, params.token, params.action, body),
  )
}
