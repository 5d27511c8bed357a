import { authApi } from '@aed/contracts'
import type { FastifyInstance } from 'fastify'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { sessionActor } from '../../plugins/oplog.ts'
import { routes } from '../../plugins/route.ts'
import * as service from './auth.service.ts'
import { sendSmsCode } from './sms.service.ts'

/** Sign-in, SMS codes, organisation switching and passwords. */
export async function authRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const route = routes(app, ['member and session'])

  route(
    authApi.login,
    {
      public: true,
      oplog: {
        type: '登录',
        content: ({ body }) => `登录方式：${body.login_way === 2 ? '短信验证码' : '密码'}`,
        actor: sessionActor,
      },
    },
    ({ req, body }) => service.login(ctx, body, langOf(req)),
  )

  route(authApi.smsCode, { public: true, oplog: false, done: 'SMS_SENT' }, ({ req, body }) =>
    sendSmsCode(ctx, body.mobile, body.scene, req.ip),
  )

  route(authApi.memberships, {}, ({ auth }) => service.currentList(ctx, auth.account_id, auth.member_id))

  route(
    authApi.switchMembership,
    { oplog: { type: '切换机构', content: (_, data) => `切换到机构：${data.agency_name}` } },
    ({ req, auth, body }) => service.switchMembership(ctx, auth.account_id, body.member_id, langOf(req)),
  )

  route(
    authApi.resetPassword,
    { oplog: { type: '修改密码', content: () => '修改登录密码，其他会话已下线' }, done: 'MODIFY_OK' },
    ({ auth, body }) => service.resetPassword(ctx, auth, body),
  )

  route(
    authApi.forgetPassword,
    {
      public: true,
      oplog: {
        type: '找回密码',
        content: () => '通过短信验证码重设登录密码',
        actor: ({ body }) => service.actorOfPhone(ctx, body.phone),
      },
      done: 'MODIFY_OK',
    },
    async ({ body }) => {
      await service.forgetPassword(ctx, body)
      return null
    },
  )
}
