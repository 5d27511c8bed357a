import { authApi } from '@aed/contracts'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './security.service.ts'

/** The signed-in account's own security settings: SMS dual verification. */
export async function securityRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['member and session'])

  route(authApi.security, {}, ({ auth }) => service.security(ctx, auth.account_id))

  route(
    authApi.setSecurity,
    {
      oplog: {
        type: '安全设置',
        content: (_, data) => `短信双重验证：${data.sms_dual_verify ? '开启' : '关闭'}`,
      },
      done: 'SAVE_OK',
    },
    ({ auth, body }) => service.setSecurity(ctx, auth.account_id, body),
  )
}
