import { asc, gt } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { Db, DbOrTx } from '../../db/client.ts'
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

/**
 * What the outbox holds after `after` (an id), oldest first: the development server's SMS read
 * back (DEV_SMS_OUTBOX, GET /api/v1/dev/sms), so the simulator's phones find their alert links.
 */
export async function readOutbox(db: DbOrTx, after: number, limit: number) {
  const rows = await db
    .select({
      id: smsOutbox.id,
      phone: smsOutbox.phone,
      kind: smsOutbox.kind,
      content: smsOutbox.content,
      key: smsOutbox.idempotency_key,
      status: smsOutbox.status,
      create_time: smsOutbox.create_time,
      sent_at: smsOutbox.sent_at,
    })
    .from(smsOutbox)
    .where(gt(smsOutbox.id, after))
    .orderBy(asc(smsOutbox.id))
    .limit(limit)
  return rows.map((r) => ({
    ...r,
    create_time: r.create_time.toISOString(),
    sent_at: r.sent_at ? r.sent_at.toISOString() : null,
  }))
}
