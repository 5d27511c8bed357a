import type { AppContext, Job } from '../../context.ts'
import { repushAlarm } from '../message/message.service.ts'
import * as repo from './alert.repository.ts'
import { escalationLine } from './alert.rules.ts'
import { escalateMinutes } from './alert-sms.service.ts'

/** Messages escalated per tick at most. */
const ESCALATE_BATCH = 100

/** The organisation ids of a path '/1/5/12/', root first. */
const pathIds = (path: string) => path.split('/').filter(Boolean).map(Number)

/**
 * Takes one step of an unconfirmed alarm, in its own transaction: level 1 tells the message's
 * organisation, each next level the organisation above, up to the root. Its administrators get
 * an SMS (queued, due now), the alarm is pushed again, the step is recorded, and the next step
 * is due after the message organisation's minutes (none past the root). Answers whether a step
 * was taken (false: confirmed or taken elsewhere meanwhile).
 */
export async function escalateMessage(ctx: AppContext, messageId: number, now: Date): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const m = await repo.lockDueMessage(tx, messageId, now)
    if (!m) return false
    const chain = pathIds(m.agency_path)
    const level = m.escalation_level + 1
    const targetId = chain[chain.length - level]
    const target = targetId === undefined ? null : await repo.agencyName(tx, targetId)
    if (!target) {
      await repo.stopEscalation(tx, m.id)
      return false
    }
    const minutes = await escalateMinutes(tx, m.agency_id)
    // A disabled organisation's administrators can no longer act: the step is recorded without SMS.
    const phones = target.disabled ? [] : await repo.administratorPhones(tx, target.id, now)
    const line = escalationLine({
      msgType: m.msg_type,
      deviceSn: m.device_sn,
      cabinetSn: m.cabinet_sn,
      location: m.location,
      minutes: Math.max(1, Math.floor((now.getTime() - m.msg_time.getTime()) / 60_000)),
    })
    for (const phone of phones) {
      await repo.queueAlert(
        tx,
        {
          kind: 'escalation',
          dedupeKey: `esc:${m.id}:${level}:${phone}`,
          phone,
          agencyId: target.id,
          deviceId: null,
          messageId: m.id,
          line,
          dueAt: now,
        },
        now,
      )
    }
    await repushAlarm(ctx, tx, m.id, level)
    const atRoot = level >= chain.length
    await repo.recordEscalation(
      tx,
      {
        messageId: m.id,
        level,
        agencyId: target.id,
        agencyName: target.name,
        recipients: phones.length,
        next: atRoot ? null : new Date(now.getTime() + minutes * 60_000),
      },
      now,
    )
    return true
  })
}

/** Escalates every due unconfirmed alarm one step; one message's failure leaves it due for the next tick. */
export async function escalateDue(ctx: AppContext, now: Date): Promise<number> {
  let steps = 0
  for (const id of await repo.dueEscalations(ctx.db, now, ESCALATE_BATCH)) {
    try {
      if (await escalateMessage(ctx, id, now)) steps++
    } catch (e) {
      ctx.log.error({ message: id, err: { message: (e as Error).message } }, 'escalation step failed')
    }
  }
  return steps
}

/** Escalates unconfirmed first-aid and door alarms, once per cluster. */
export const escalationJob: Job = {
  name: 'alarm-escalation',
  everyMs: 15_000,
  async run(ctx, now) {
    await escalateDue(ctx, now)
  },
}
