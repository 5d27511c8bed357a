import {
  envelope,
  forgetPasswordRequest,
  loginRequest,
  membershipSchema,
  paged,
  resetPasswordRequest,
  smsCodeRequest,
  smsCodeResponse,
  switchMembershipRequest,
  type UserInfo,
  userInfoSchema,
} from '@aed/contracts'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import { z } from 'zod'
import type { AppContext } from '../../context.ts'
import { langOf } from '../../lib/lang.ts'
import { authOf } from '../../plugins/auth.ts'
import { ok } from '../../plugins/envelope.ts'
import { sessionActor } from '../../plugins/oplog.ts'
import { firstActor } from './auth.repository.ts'
import * as service from './auth.service.ts'
import { sendSmsCode } from './sms.service.ts'

const tags = ['member and session']

/** Sign-in, SMS codes, organisation switching and passwords. */
export async function authRoutes(base: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = base.withTypeProvider<ZodTypeProvider>()

  app.post(
    '/api/v1/member/login',
    {
      config: {
        public: true,
        oplog: {
          type: '登录',
          content: (req) =>
            `登录方式：${(req.body as { login_way: number }).login_way === 2 ? '短信验证码' : '密码'}`,
          actor: sessionActor,
        },
      },
      schema: { tags, summary: 'Sign in', body: loginRequest, response: { 200: envelope(userInfoSchema) } },
    },
    async (req) => ok(req, await service.login(ctx, req.body, langOf(req))),
  )

  app.post(
    '/api/v1/system/sms-code/',
    {
      config: { public: true, oplog: false },
      schema: {
        tags,
        summary: 'Send an SMS verification code',
        body: smsCodeRequest,
        response: { 200: envelope(smsCodeResponse) },
      },
    },
    async (req) => ok(req, await sendSmsCode(ctx, req.body.mobile, req.body.scene, req.ip), 'SMS_SENT'),
  )

  app.get(
    '/api/v1/member/current-list/',
    {
      schema: {
        tags,
        summary: 'Organisations of the signed-in account',
        response: { 200: envelope(paged(membershipSchema)) },
      },
    },
    async (req) => {
      const auth = authOf(req)
      const list = await service.currentList(ctx, auth.account_id, auth.member_id)
      return ok(req, { count: list.length, resource: list })
    },
  )

  app.post(
    '/api/v1/member/current-list/',
    {
      config: {
        oplog: { type: '切换机构', content: (_req, data) => `切换到机构：${(data as UserInfo).agency_name}` },
      },
      schema: {
        tags,
        summary: 'Switch organisation: a new token for another membership of the account',
        body: switchMembershipRequest,
        response: { 200: envelope(userInfoSchema) },
      },
    },
    async (req) =>
      ok(req, await service.switchMembership(ctx, authOf(req).account_id, req.body.member_id, langOf(req))),
  )

  app.post(
    '/api/v1/member/reset-password/',
    {
      config: { oplog: { type: '修改密码', content: () => '修改登录密码，其他会话已下线' } },
      schema: {
        tags,
        summary: 'Change password (ends the account’s other sessions)',
        body: resetPasswordRequest,
        response: { 200: envelope(z.object({ token: z.string() })) },
      },
    },
    async (req) => ok(req, await service.resetPassword(ctx, authOf(req), req.body), 'MODIFY_OK'),
  )

  app.post(
    '/api/v1/member/forget-password/',
    {
      config: {
        public: true,
        oplog: {
          type: '找回密码',
          content: () => '通过短信验证码重设登录密码',
          actor: (req) => firstActor(ctx.db, (req.body as { phone: string }).phone),
        },
      },
      schema: {
        tags,
        summary: 'Set a new password with an SMS code',
        body: forgetPasswordRequest,
        response: { 200: envelope(z.null()) },
      },
    },
    async (req) => {
      await service.forgetPassword(ctx, req.body)
      return ok(req, null, 'MODIFY_OK')
    },
  )
}
