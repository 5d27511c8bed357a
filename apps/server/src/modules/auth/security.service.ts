import type { AppContext } from '../../context.ts'
import { invalid, unauthenticated } from '../../lib/errors.ts'
import { checkPassword } from '../../lib/passwords.ts'
import * as repo from './auth.repository.ts'

type Account = NonNullable<Awaited<ReturnType<typeof repo.findAccountById>>>

function present(a: Account) {
  return {
    sms_dual_verify: a.sms_dual_verify,
    bind_wx: a.wechat_openid !== null,
    password_changed_at: a.password_hash ? a.password_changed_at.toISOString() : null,
  }
}

async function account(ctx: AppContext, accountId: number) {
  const a = await repo.findAccountById(ctx.db, accountId)
  if (!a) throw unauthenticated()
  return a
}

/** The signed-in account's own security settings. */
export async function security(ctx: AppContext, accountId: number) {
  return present(await account(ctx, accountId))
}

/** Switches SMS dual verification, confirmed by the account's current password. */
export async function setSecurity(
  ctx: AppContext,
  accountId: number,
  body: { sms_dual_verify: boolean; password: string },
) {
  const a = await account(ctx, accountId)
  if (!(await checkPassword(a.password_hash, body.password))) throw invalid('OLD_PASSWORD_WRONG')
  await repo.setSmsDualVerify(ctx.db, a.id, body.sms_dual_verify)
  return present({ ...a, sms_dual_verify: body.sms_dual_verify })
}
