import { messageApi } from '@aed/contracts/message'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './message.service.ts'

/**
 * The message centre: every signed-in member reads the messages of its scope (the header shows
 * them to all) and may confirm them; no area is needed, the scope is the guard.
 */
export async function messageRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['messages'])

  route(messageApi.list, {}, ({ req, auth, query }) => service.listMessages(ctx, auth, query, langOf(req)))

  route(messageApi.detail, {}, ({ req, auth, params }) =>
    service.getMessage(ctx, auth, params.id, langOf(req)),
  )

  route(
    messageApi.confirm,
    {
      oplog: {
        type: '确认消息',
        content: (_, d) => `确认消息：${d.message.msg_title}`,
      },
      done: 'MSG_CONFIRMED',
    },
    ({ req, auth, params }) => service.confirmMessage(ctx, auth, params.id, langOf(req)),
  )

  route(messageApi.unconfirmedAmount, {}, ({ auth }) => service.unconfirmedAmount(ctx, auth))
}
