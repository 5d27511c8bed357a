import {
  envelope,
  userInfoSchema,
  wechatBindRequest,
  wechatCodeRequest,
  wechatConfigSchema,
} from '@aed/contracts'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { authOf } from '../../plugins/auth.ts'
import { ok } from '../../plugins/envelope.ts'
import { sessionActor } from '../../plugins/oplog.ts'
import * as service from './wechat.service.ts'

const tags = ['WeChat']

/** WeChat QR sign-in, bind and unbind, through the configured WeChat provider. */
export async function wechatRoutes(base: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = base.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/v1/third-party/wechat/config',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Whether WeChat sign-in is configured, and a one-time state for the QR code',
        querystring: z.object({ purpose: z.enum(['login', 'bind']).default('login') }),
        response: { 200: envelope(wechatConfigSchema) },
      },
    },
    async (req) => ok(req, await service.wechatConfig(ctx, req.query.purpose)),
  )

  app.post(
    '/api/v1/third-party/wechat/login',
    {
      config: {
        public: true,
        oplog: { type: '登录', content: () => '登录方式：微信扫码', actor: sessionActor },
      },
      schema: {
        tags,
        summary: 'Sign in with a WeChat scan',
        body: wechatCodeRequest,
        response: { 200: envelope(userInfoSchema) },
      },
    },
    async (req) => ok(req, await service.wechatLogin(ctx, req.body.code, req.body.state, langOf(req))),
  )

  app.post(
    '/api/v1/third-party/wechat/bind',
    {
      config: { oplog: { type: '绑定微信', content: () => '当前账号绑定微信' } },
      schema: {
        tags,
        summary: 'Bind WeChat to this account',
        body: wechatBindRequest,
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await service.wechatBind(ctx, authOf(req), req.body)
      return ok(req, null, 'BIND_OK')
    },
  )

  app.post(
    '/api/v1/third-party/wechat/unbind',
    {
      config: { oplog: { type: '解绑微信', content: () => '当前账号解绑微信' } },
      schema: { tags, summary: 'Unbind WeChat from this account', response: { 200: envelope(z.null()) } },
    },
    async (req) => {
      await service.wechatUnbind(ctx, authOf(req).account_id)
      return ok(req, null, 'UNBIND_OK')
    },
  )
}
