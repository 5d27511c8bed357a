import { serviceConfigApi, type WebhookDelivery } from '@aed/contracts/service-config'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './webhook.service.ts'

/** A delivery with its organisation's name, for the operation log. */
type Logged = WebhookDelivery & { agency_name: string }

/** The webhook delivery log of a service configuration, its resend and its test event; system super administrators only. */
export async function webhookRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['webhook'])

  route(serviceConfigApi.deliveries, { systemSuper: true }, ({ auth, params, query }) =>
    service.deliveries(ctx, auth, params.id, query),
  )

  route(
    serviceConfigApi.resend,
    {
      systemSuper: true,
      oplog: {
        type: '重发推送',
        content: (_, data: Logged) => `${data.agency_name}：${data.message_id}（${data.event}）`,
      },
      done: 'WEBHOOK_RESENT',
    },
    ({ auth, params }) => service.resend(ctx, auth, params.id, params.delivery_id),
  )

  route(
    serviceConfigApi.test,
    {
      systemSuper: true,
      oplog: { type: '测试推送', content: (_, data: Logged) => `${data.agency_name}：${data.message_id}` },
      done: 'WEBHOOK_TEST_SENT',
    },
    ({ auth, params }) => service.sendTest(ctx, auth, params.id),
  )
}
