import crypto from 'node:crypto'
import { Code, type Lang } from '@aed/contracts'
import type { AppContext } from '../../context.ts'
import { AppError, invalid } from '../../lib/errors.ts'
import * as repo from './auth.repository.ts'
import { loginAccount } from './auth.service.ts'
import { consumeSmsCode } from './sms.service.ts'
import * as states from './wechat.repository.ts'

const STATE_TTL_SECONDS = 600
type Purpose = 'login' | 'bind'

function requireEnabled(ctx: AppContext) {
  if (!ctx.wechat.enabled) throw new AppError(Code.PROVIDER_UNAVAILABLE, 'WECHAT_NOT_CONFIGURED')
}

/** What the console needs to draw the QR panel; a fresh one-time state each time. */
export async function wechatConfig(ctx: AppContext, purpose: Purpose) {
  if (!ctx.wechat.enabled) return { enabled: false, appid: null, redirect_uri: null, state: null }
  const state = crypto.randomBytes(16).toString('hex')
  await states.insertState(ctx.db, state, purpose, new Date(Date.now() + STATE_TTL_SECONDS * 1000))
  return { enabled: true, appid: ctx.wechat.appid, redirect_uri: ctx.wechat.redirectUri, state }
}

/** Spends a state issued for `purpose`; a replayed, forged or stale one is refused. */
async function spendState(ctx: AppContext, state: string, purpose: Purpose) {
  if (!(await states.spendState(ctx.db, state, purpose))) throw invalid('WECHAT_STATE_INVALID')
}

async function openidOf(ctx: AppContext, code: string) {
  try {
    return (await ctx.wechat.exchangeCode(code)).openid
  } catch {
    throw new AppError(Code.PROVIDER_UNAVAILABLE, 'WECHAT_FAILED')
  }
}

/** Signs in the account bound to the scanning WeChat user. */
export async function wechatLogin(ctx: AppContext, code: string, state: string, lang: Lang) {
  requireEnabled(ctx)
  await spendState(ctx, state, 'login')
  const account = await repo.findAccountByOpenid(ctx.db, await openidOf(ctx, code))
  if (!account) throw invalid('WECHAT_NOT_BOUND')
  return loginAccount(ctx, account.id, account.last_member_id, lang)
}

/** Binds the scanning WeChat user to the signed-in account, after an SMS code to its phone. */
export async function wechatBind(
  ctx: AppContext,
  auth: { account_id: number; phone: string },
  body: { code: string; state: string; sms_code: string },
) {
  requireEnabled(ctx)
  if (!(await consumeSmsCode(ctx, auth.phone, 'bind_wx', body.sms_code))) throw invalid('SMS_CODE_WRONG')
  await spendState(ctx, body.state, 'bind')
  const openid = await openidOf(ctx, body.code)
  const holder = await repo.findAccountByOpenid(ctx.db, openid)
  if (holder && holder.id !== auth.account_id) throw invalid('WECHAT_ALREADY_BOUND')
  await repo.setWechatOpenid(ctx.db, auth.account_id, openid)
}

export async function wechatUnbind(ctx: AppContext, accountId: number) {
  const account = await repo.findAccountById(ctx.db, accountId)
  if (!account?.wechat_openid) throw invalid('NOT_BOUND')
  await repo.setWechatOpenid(ctx.db, accountId, null)
}
