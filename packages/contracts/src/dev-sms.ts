import { z } from 'zod'
import { get } from './endpoint.ts'

// The local SMS provider's outbox, read back (DEV_SMS_OUTBOX=1 only): what a development server
// "sent", with the text, so a separate process (the simulator's phones) can follow the links in
// the responders' alert SMS. Never on a production server: the texts carry the alert links.

/** Rows a read answers at most. */
export const DEV_SMS_MAX = 500

export const devSmsQuery = z.object({
  /** Rows after this id (the last one read); 0 for the oldest kept. */
  after: z.coerce.number({ message: 'INVALID_INPUT' }).int().min(0).default(0),
  limit: z.coerce.number({ message: 'INVALID_INPUT' }).int().min(1).max(DEV_SMS_MAX).default(100),
})

/** One SMS of the outbox. */
export const devSmsSchema = z.object({
  id: z.number().int(),
  /** Whole (not masked): the development server's own test numbers. */
  phone: z.string(),
  /** code, aid, status, escalation, digest, dispatch. */
  kind: z.string(),
  content: z.string(),
  /** The sender's key (dispatch:{alert id} for a responder's alert), null for codes. */
  key: z.string().nullable(),
  /** pending until the provider took it, then sent (or failed). */
  status: z.string(),
  /** ISO 8601. */
  create_time: z.string(),
  sent_at: z.string().nullable(),
})
export type DevSms = z.infer<typeof devSmsSchema>

export const devSmsApi = {
  outbox: get('/api/v1/dev/sms', {
    summary:
      'Development only (DEV_SMS_OUTBOX=1 with SMS_PROVIDER=local; not registered otherwise): system super administrators read the SMS outbox after an id, oldest first, with the texts',
    query: devSmsQuery,
    response: z.object({ resource: z.array(devSmsSchema) }),
  }),
}
