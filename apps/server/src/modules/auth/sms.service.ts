import crypto from 'node:crypto'
import { Code, SMS_CODE_TTL_SECONDS, SMS_RESEND_SECONDS } from '@aed/contracts'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../lib/errors.ts'
import * as repo from './sms.repository.ts'

/** Codes a phone may receive in a day, and an address may ask for in an hour. */
export const SMS_PHONE_DAILY_LIMIT = 10
export const SMS_IP_HOURLY_LIMIT = 30
/** Wrong guesses before a code is spent. */
const MAX_ATTEMPTS = 5

export type SmsScene = 'login' | 'forget' | 'bind_wx'

function hashCode(ctx: AppContext, phone: string, scene: string, code: string) {
  return crypto.createHmac('sha256', ctx.tokens.pepper).update(`${phone}:${scene}:${code}`).digest('hex')
}

/** Sends a fresh 6-digit code, enforcing the 60 s resend gap and the per-phone and per-address limits. */
export async function sendSmsCode(ctx: AppContext, phone: string, scene: SmsScene, ip: string) {
  const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0')
  await ctx.db.transaction(async (tx) => {
    await repo.lockPhone(tx, phone)
    const s = await repo.sendStats(tx, phone, ip)
    if (s.sinceLast !== null && s.sinceLast < SMS_RESEND_SECONDS) {
      throw new AppError(Code.RATE_LIMITED, 'SMS_TOO_SOON', {
        seconds: Math.ceil(SMS_RESEND_SECONDS - s.sinceLast),
      })
    }
    if (s.phoneDay >= SMS_PHONE_DAILY_LIMIT) throw new AppError(Code.RATE_LIMITED, 'SMS_PHONE_LIMIT')
    if (s.ipHour >= SMS_IP_HOURLY_LIMIT) throw new AppError(Code.RATE_LIMITED, 'SMS_IP_LIMIT')
    await repo.insertCode(tx, {
      phone,
      scene,
      code_hash: hashCode(ctx, phone, scene, code),
      ip,
      ttlSeconds: SMS_CODE_TTL_SECONDS,
    })
  })
  await ctx.sms.sendCode(phone, code)
  return { resend_after: SMS_RESEND_SECONDS, expire_in: SMS_CODE_TTL_SECONDS }
}

/** Spends a matching code; a wrong guess counts against the code, five spend it. */
export async function consumeSmsCode(ctx: AppContext, phone: string, scene: SmsScene, code: string) {
  return ctx.db.transaction(async (tx) => {
    await repo.lockPhone(tx, phone)
    const live = await repo.latestLiveCode(tx, phone, scene)
    if (!live || live.attempts >= MAX_ATTEMPTS) return false
    const given = Buffer.from(hashCode(ctx, phone, scene, code))
    const stored = Buffer.from(live.code_hash)
    if (given.length === stored.length && crypto.timingSafeEqual(given, stored)) {
      await repo.markUsed(tx, live.id)
      return true
    }
    await repo.countAttempt(tx, live.id)
    return false
  })
}
