import { translate } from '@aed/contracts'
import { daysBetween } from '@aed/contracts/responder-rules'
import type { AppContext, Job } from '../../context.ts'
import { every } from '../../lib/every.ts'
import { formatDateTime } from '../../lib/time.ts'
import { queueNoticeSms } from '../alert/alert-sms.service.ts'
import { tellCertificateNotice } from '../message/message.service.ts'
import * as repo from './responder.repository.ts'

/** Notices are written from this hour of the organisations' day: no reminder SMS at midnight. */
export const CERT_NOTICE_HOUR = 9

/** Certificates read per transaction. */
const BATCH = 200

/**
 * The daily certificate check: a professional whose certificate expires within 30 days is
 * reminded (SMS to them, a type-7 message to the organisation) at 30 and at 7 days; one whose
 * certificate has expired gets a history line and the organisation a message. Each notice is
 * written once per expiry (a unique index), so a restart, a second instance or a second run the
 * same day changes nothing. The dispatch state itself follows the date when read, not this job.
 */
export async function checkCertificates(ctx: AppContext, now: Date): Promise<number> {
  const local = formatDateTime(now)
  if (Number(local.slice(11, 13)) < CERT_NOTICE_HOUR) return 0
  const today = local.slice(0, 10)
  let written = 0
  for (;;) {
    const n = await ctx.db.transaction(async (tx) => {
      const due = await repo.certificatesDue(tx, today, BATCH)
      for (const r of due) {
        const days = daysBetween(today, r.certificate_expire)
        const detail = { certificate_expire: r.certificate_expire, days }
        const [change] = await repo.insertChanges(
          tx,
          [{ responder_id: r.id, kind: r.kind, detail, cert_expire: r.certificate_expire }],
          now,
        )
        // Another instance wrote it first (the unique index): its SMS and message are its own.
        if (!change) continue
        const expired = r.kind === 'expired'
        await tellCertificateNotice(ctx, tx, {
          change_id: change.id,
          responder_id: r.id,
          agency_id: r.agency_id,
          index_link: r.index_link,
          name: r.name,
          certificate_expire: r.certificate_expire,
          days,
          expired,
          time: now,
        })
        if (!expired) {
          const content = translate('SMS_CERT_EXPIRING', 'zh-CN', {
            name: r.name,
            num: r.certificate_num ?? '',
            date: r.certificate_expire,
            agency: r.agency_name,
          })
          await queueNoticeSms(tx, { phone: r.phone, content, key: `cert:${change.id}` }, now)
        }
      }
      return due.length
    })
    written += n
    if (n < BATCH) return written
  }
}

/** Hourly: a new day's notices go out within the hour after CERT_NOTICE_HOUR. */
export const certificateJob: Job = every('responder-certificates', 3600_000, checkCertificates)

/** The responder module's jobs (jobs/index.ts runs them with the others). */
export const responderJobs: readonly Job[] = [certificateJob]
