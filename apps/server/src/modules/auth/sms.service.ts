import crypto from 'node:crypto'
import { Code, SMS_CODE_TTL_SECONDS, SMS_RESEND_SECONDS } from '@aed/contracts'
import type { AppContext } from '../../context.ts'
import { AppError } from '../../lib/errors.ts'
import * as repo from './sms.repository.ts'

/** Wrong guesses before a code is spent. */
const MAX_ATTEMPTS = 5

export type SmsScene = 'login' | 'forget' | 'bind_wx'

function hashCode(ctx: AppContext, phone: string, scene: string, code: string) {
  return crypto.createHmac('sha256', ctx.tokens.pepper).update(`${phone}:${scene}:${code}`).digest('hex')
}

/** A running mean of how long the provider takes to send, per provider. */
const sendMillis = new WeakMap<object, number>()

async function timedSend(ctx: AppContext, phone: string, code: string) {
  const started = performance.now()
  await ctx.sms.sendCode(phone, code)
  const took = performance.now() - started
  const mean = sendMillis.get(ctx.sms)
  sendMillis.set(ctx.sms, mean === undefined ? took : mean * 0.8 + took * 0.2)
}

/** Waits about as long as a real send takes, so a number without an account answers no faster. */
function imitateSend(ctx: AppContext) {
  const mean = sendMillis.get(ctx.sms) ?? 0
  const wait = Math.min(mean * (0.75 + Math.random() * 0.5), 5_000)
  return new Promise<void>((resolve) => setTimeout(resolve, wait))
}

/**
 * Sends a fresh 6-digit code to a number that has an account, enforcing the 60 s resend gap and
 * the per-phone, per-address and overall limits. Every purpose (sign-in, forgotten password,
 * WeChat binding) needs an existing account, so a number without one gets no SMS, but the same
 * answer: its request is recorded and counted like a sent one (an unmatchable hash), so the
 * resend gap and the limits answer alike too, and it takes about as long as a send.
 */
export async function sendSmsCode(ctx: AppContext, phone: string, scene: SmsScene, ip: string) {
  const c = ctx.config
  const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0')
  const known = await ctx.db.transaction(async (tx) => {
    await repo.lockPhone(tx, phone)
    await repo.lockIp(tx, ip)
    const exists = await repo.accountExists(tx, phone)
    const s = await repo.sendStats(tx, phone, ip)
    if (s.sinceLast !== null && s.sinceLast < SMS_RESEND_SECONDS) {
      throw new AppError(Code.RATE_LIMITED, 'SMS_TOO_SOON', {
        seconds: Math.ceil(SMS_RESEND_SECONDS - s.sinceLast),
      })
    }
    if (s.phoneDay >= c.SMS_PHONE_DAILY_LIMIT) throw new AppError(Code.RATE_LIMITED, 'SMS_PHONE_LIMIT')
    if (s.ipMinute >= c.SMS_IP_MINUTE_LIMIT || s.ipHour >= c.SMS_IP_HOURLY_LIMIT) {
      throw new AppError(Code.RATE_LIMITED, 'SMS_IP_LIMIT')
    }
    if (await repo.sentInLastHourReached(tx, c.SMS_GLOBAL_HOURLY_LIMIT)) {
      throw new AppError(Code.RATE_LIMITED, 'SMS_GLOBAL_LIMIT')
    }
    await repo.insertCode(tx, {
      phone,
      scene,
      code_hash: exists ? hashCode(ctx, phone, scene, code) : repo.UNSENT,
      ip,
      ttlSeconds: SMS_CODE_TTL_SECONDS,
    })
    return exists
  })
  if (known) await timedSend(ctx, phone, code)
  else await imitateSend(ctx)
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
