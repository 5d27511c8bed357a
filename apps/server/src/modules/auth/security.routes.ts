import { envelope, securitySchema, securityUpdate } from '@aed/contracts'
import { eq } from 'drizzle-orm'
import type { FastifyInstance } from 'fastify'
import type { ZodTypeProvider } from 'fastify-type-provider-zod'
import type { AppContext } from '../../context.ts'
import { accounts } from '../../db/schema.ts'
import { invalid, unauthenticated } from '../../lib/errors.ts'
import { checkPassword } from '../../lib/passwords.ts'
import { authOf } from '../../plugins/auth.ts'
import { ok } from '../../plugins/envelope.ts'
import { findAccountById } from './auth.repository.ts'

const tags = ['member and session']

function present(a: NonNullable<Awaited<ReturnType<typeof findAccountById>>>) {
  return {
    sms_dual_verify: a.sms_dual_verify,
    bind_wx: a.wechat_openid !== null,
    password_changed_at: a.password_hash ? a.password_changed_at.toISOString() : null,
  }
}

/** The signed-in account's own security settings: SMS dual verification. */
export async function securityRoutes(base: FastifyInstance, { ctx }: { ctx: AppContext }) {
  const app = base.withTypeProvider<ZodTypeProvider>()

  app.get(
    '/api/v1/member/security/',
    {
      schema: {
        tags,
        summary: 'Security settings of the signed-in account',
        response: { 200: envelope(securitySchema) },
      },
    },
    async (req) => {
      const account = await findAccountById(ctx.db, authOf(req).account_id)
      if (!account) throw unauthenticated()
      return ok(req, present(account))
    },
  )

  app.put(
    '/api/v1/member/security/',
    {
      config: {
        oplog: {
          type: '安全设置',
          content: (_req, data) =>
            `短信双重验证：${(data as { sms_dual_verify: boolean }).sms_dual_verify ? '开启' : '关闭'}`,
        },
      },
      schema: {
        tags,
        summary: 'Switch SMS dual verification, confirmed by the current password',
        body: securityUpdate,
        response: { 200: envelope(securitySchema) },
      },
    },
    async (req) => {
      const account = await findAccountById(ctx.db, authOf(req).account_id)
      if (!account) throw unauthenticated()
      if (!(await checkPassword(account.password_hash, req.body.password)))
        throw invalid('OLD_PASSWORD_WRONG')
      await ctx.db
        .update(accounts)
        .set({ sms_dual_verify: req.body.sms_dual_verify, update_time: new Date() })
        .where(eq(accounts.id, account.id))
      return ok(req, present({ ...account, sms_dual_verify: req.body.sms_dual_verify }), 'SAVE_OK')
    },
  )
}
