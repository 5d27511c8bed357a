import {
  type AgencySettings,
  DEFAULT_ALARM_ESCALATE_MINUTES,
  DEFAULT_SETTINGS,
} from '@aed/contracts/settings'
import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import type { DeviceEventKind } from '../../db/schema.ts'
import { TIME_ZONE } from '../../lib/time.ts'
import type { OutboxHandler, OutboxRecord } from '../engine/outbox.ts'
import * as repo from './alert.repository.ts'
import { allowedOn, callLine, localDay, rescueLine, statusLine, statusSendAt } from './alert.rules.ts'

/** A number that can receive an SMS (a mainland mobile); organisations' contact numbers may be landlines. */
export const isMobile = (phone: string | null | undefined): phone is string =>
  !!phone && /^1\d{10}$/.test(phone)

/** Saved settings over the defaults (settings saved before a field existed lack it). */
export const settingsOf = (config: Partial<AgencySettings> | null): AgencySettings => ({
  ...DEFAULT_SETTINGS,
  ...(config ?? {}),
})

type StatusPayload = {
  sms: 'status'
  event_id: number
  device_id: number
  kind: DeviceEventKind
  code: string
}
type RescuePayload = { sms: 'aid'; rescue_id: number; device_id: number }
type CallPayload = { sms: 'call'; call_id: number }

/**
 * A call's first-aid SMS (modules/call): to the owning organisation's contact mobile, under its
 * aid_sms schedule, at once (a first-aid alarm waits for no window).
 */
async function planCallSms(ctx: AppContext, tx: DbOrTx, row: OutboxRecord, p: CallPayload) {
  const now = ctx.clock.now()
  const facts = await repo.callAlertFacts(tx, p.call_id)
  if (!facts) return
  const skip = (why: string) =>
    ctx.log.info({ outbox: row.id, call: p.call_id }, `call SMS not queued: ${why}`)
  if (!isMobile(facts.agency_phone)) return skip('no mobile of the organisation')
  if (!allowedOn(settingsOf(facts.config).aid_sms, localDay(now, TIME_ZONE).weekday))
    return skip('first-aid SMS off today')
  await repo.queueAlert(
    tx,
    {
      kind: 'aid',
      dedupeKey: `call:${p.call_id}:${facts.agency_phone}`,
      phone: facts.agency_phone,
      agencyId: facts.agency_id,
      deviceId: null,
      line: callLine({ location: facts.location, phone: facts.phone }),
      dueAt: now,
    },
    now,
  )
}

/**
 * Plans the SMS of an engine `sms` outbox row (aid or abnormal status) inside the drain's
 * transaction: whom to tell (the installation's manager, else the organisation's contact), and
 * when (the organisation's schedule and window). It only queues lines (sms_alerts); the
 * dispatch job sends them.
 */
export const smsOutboxHandler: OutboxHandler = async (ctx, tx, row) => {
  if (row.payload.sms === 'call') return planCallSms(ctx, tx, row, row.payload as CallPayload)
  const payload = row.payload as StatusPayload | RescuePayload
  const now = ctx.clock.now()
  const facts = await repo.deviceAlertFacts(tx, payload.device_id, now)
  if (!facts) return
  const settings = settingsOf(facts.config)
  const phone = isMobile(facts.manager_phone) ? facts.manager_phone : facts.agency_phone
  const skip = (why: string) =>
    ctx.log.info({ outbox: row.id, device: payload.device_id }, `alert SMS not queued: ${why}`)
  if (!isMobile(phone)) return skip('no mobile of a manager or the organisation')
  const base = { phone, agencyId: facts.agency_id, deviceId: payload.device_id }

  if (payload.sms === 'aid') {
    if (!allowedOn(settings.aid_sms, localDay(now, TIME_ZONE).weekday)) return skip('first-aid SMS off today')
    await repo.queueAlert(
      tx,
      {
        ...base,
        kind: 'aid',
        dedupeKey: `aid:${payload.rescue_id}:${phone}`,
        line: rescueLine({ deviceSn: facts.device_sn, location: facts.location }),
        dueAt: now,
      },
      now,
    )
    return
  }

  // The engine leaves these out already; the installation may have been changed since.
  if (facts.sms_off) return skip('abnormal SMS off for the device')
  const due = statusSendAt(now, settings.exec_status_sms, settings.exec_status_sms_time_period, TIME_ZONE)
  if (!due) return skip('abnormal-status SMS off')
  // Keyed by the day it goes out: a condition that flaps, or is held over a night or weekend, is told once.
  const day = localDay(due, TIME_ZONE).date
  await repo.queueAlert(
    tx,
    {
      ...base,
      kind: 'status',
      dedupeKey: `status:${payload.device_id}:${payload.kind}:${payload.code}:${day}`,
      line: statusLine({
        deviceSn: facts.device_sn,
        location: facts.location,
        kind: payload.kind,
        code: payload.code,
      }),
      dueAt: due,
    },
    now,
  )
}

/** Minutes an unconfirmed alarm of this organisation waits for each escalation step. */
export async function escalateMinutes(tx: DbOrTx, agencyId: number): Promise<number> {
  return (await repo.agencyConfig(tx, agencyId))?.alarm_escalate_minutes ?? DEFAULT_ALARM_ESCALATE_MINUTES
}

/** When an alarm message of this organisation is first escalated if nobody confirms it; null: never. */
export async function firstEscalationAt(
  _ctx: AppContext,
  tx: DbOrTx,
  agencyId: number,
  msgTime: Date,
): Promise<Date | null> {
  return new Date(msgTime.getTime() + (await escalateMinutes(tx, agencyId)) * 60_000)
}

/**
 * Queues a notice SMS to a person (a responder's certificate reminder, a dispatch alert), once per `key`, in the
 * caller's transaction; the dispatch job sends it with the alarms' retries.
 */
export function queueNoticeSms(
  tx: DbOrTx,
  s: { phone: string; content: string; key: string; kind?: 'certificate' | 'dispatch' | 'review' },
  now: Date,
) {
  return repo.queueSms(tx, { kind: 'certificate', ...s }, now)
}
