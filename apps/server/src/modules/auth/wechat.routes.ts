import { wechatApi } from '@aed/contracts'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { sessionActor } from '../../plugins/oplog.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './wechat.service.ts'

/** WeChat QR sign-in, bind and unbind, through the configured WeChat provider. */
export async function wechatRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['WeChat'])

  route(wechatApi.config, { public: true }, ({ query }) => service.wechatConfig(ctx, query.purpose))

  route(
    wechatApi.login,
    { public: true, oplog: { type: '登录', content: () => '登录方式：微信扫码', actor: sessionActor } },
    ({ req, body }) => service.wechatLogin(ctx, body.code, body.state, langOf(req)),
  )

  route(
    wechatApi.bind,
    { oplog: { type: '绑定微信', content: () => '当前账号绑定微信' }, done: 'BIND_OK' },
    async ({ auth, body }) => {
      await service.wechatBind(ctx, auth, body)
      return null
    },
  )

  route(
    wechatApi.unbind,
    { oplog: { type: '解绑微信', content: () => '当前账号解绑微信' }, done: 'UNBIND_OK' },
    async ({ auth }) => {
      await service.wechatUnbind(ctx, auth.account_id)
      return null
    },
  )
}
