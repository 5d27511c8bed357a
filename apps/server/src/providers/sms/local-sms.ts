import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../../db/client.ts'
import { smsOutbox } from '../../db/schema.ts'
import type { SmsProvider } from './sms-provider.ts'

/**
 * Development provider: writes each message to the server log. Codes also get their sms_outbox
 * row here; notifications already have theirs (the alert dispatcher writes it before sending).
 */
export function localSms(db: Db, log: Pick<FastifyBaseLogger, 'info'>): SmsProvider {
  return {
    name: 'local',
    async sendCode(phone, code) {
      const content = `【AED云】您的验证码为${code}，5分钟内有效。`
      await db.insert(smsOutbox).values({ phone, content })
      log.info({ phone, code }, `SMS to ${phone}: verification code ${code}`)
    },
    async sendText(phone, text, idempotencyKey) {
      log.info({ phone, key: idempotencyKey }, `SMS to ${phone}: ${text}`)
    },
  }
}
