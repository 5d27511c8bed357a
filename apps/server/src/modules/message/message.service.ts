import type { Lang } from '@aed/contracts'
import { LiveType } from '@aed/contracts/live'
import { ALARM_MSG_TYPES, type MessageListQuery, MsgType } from '@aed/contracts/message'
import type { AppContext, OutboxHandler, OutboxRecord } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { notFound } from '../../lib/errors.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import type { UnappliedPayload } from '../engine/unapplied.ts'
import type { LiveMessages } from '../live/live.hub.ts'
import { pushLive } from '../live/live.service.ts'
import { presentAlarm, presentMessage } from './message.presenter.ts'
import * as repo from './message.repository.ts'

/** GET /api/v1/system/msg-center: the scope's messages, newest first. */
export async function listMessages(ctx: AppContext, auth: AuthContext, q: MessageListQuery, lang: Lang) {
  const { count, rows } = await repo.listMessages(ctx.db, auth, q)
  return { count, resource: rows.map((m) => presentMessage(m, lang)) }
}

/** GET /api/v1/system/msg-center/{id}: one message with its escalation steps. */
export async function getMessage(ctx: AppContext, auth: AuthContext, id: number, lang: Lang) {
  const m = await repo.findMessageInScope(ctx.db, auth, id)
  if (!m) throw notFound()
  return presentMessage(m, lang, await repo.escalationsOf(ctx.db, [id]))
}

/**
 * PUT /api/v1/system/msg-center/{id}: confirms it for everyone who sees it, records who and
 * when, stops its escalation, and tells every console of the scope. Confirming a confirmed
 * message changes nothing and succeeds.
 */
export async function confirmMessage(ctx: AppContext, auth: AuthContext, id: number, lang: Lang) {
  return ctx.db.transaction(async (tx) => {
    const before = await repo.findMessageInScope(tx, auth, id)
    if (!before) throw notFound()
    const now = ctx.clock.now()
    if (await repo.confirmMessage(tx, id, { member_id: auth.member_id, name: auth.user_name }, now)) {
      const after = (await repo.findMessage(tx, id)) as repo.MessageDbRow
      await pushMessage(ctx, tx, after)
      return { success: true, message: presentMessage(after, lang, await repo.escalationsOf(tx, [id])) }
    }
    return { success: true, message: presentMessage(before, lang, await repo.escalationsOf(tx, [id])) }
  })
}

/** GET /api/v1/device/unconfirmed-msg/amount/: the bell's count. */
export async function unconfirmedAmount(ctx: AppContext, auth: AuthContext) {
  return { amount: await repo.unconfirmedCount(ctx.db, auth.index_link) }
}

/** Tells the scope's consoles a message was created or changed (frame 13; counts follow). */
function pushMessage(ctx: AppContext, tx: DbOrTx, m: repo.MessageDbRow) {
  return pushLive(ctx, tx, {
    data_type: LiveType.MESSAGE,
    agency_id: m.agency_id,
    index_link: m.index_link,
    data: m as unknown as Record<string, unknown>,
  })
}

/** Pushes the popup's alarm of an alarm message (data_type 2 first aid, 4 cabinet door). */
function pushAlarm(ctx: AppContext, tx: DbOrTx, m: repo.MessageDbRow, level: number) {
  return pushLive(ctx, tx, {
    data_type: m.msg_type === MsgType.CABINET_DOOR ? LiveType.CABINET_DOOR : LiveType.AID_ALARM,
    agency_id: m.agency_id,
    index_link: m.index_link,
    data: presentAlarm(m, level),
  })
}

/**
 * Pushes an unconfirmed alarm message again on the live channel (its popup reopens on every
 * console of the scope), marked with its escalation level.
 */
export async function repushAlarm(
  ctx: AppContext,
  tx: DbOrTx,
  messageId: number,
  level: number,
): Promise<void> {
  const m = await repo.findMessage(tx, messageId)
  if (!m || m.is_confirm === 1 || !ALARM_MSG_TYPES.includes(m.msg_type)) return
  await pushAlarm(ctx, tx, m, level)
  await pushMessage(ctx, tx, m)
}

type MessagePayload = {
  msg_type: number
  rescue_id?: number
  call_id?: number
  event_id?: number
  door_event_id?: number
}

/** The facts of the event a `message` outbox row names, as a new message. */
async function newMessageOf(
  tx: DbOrTx,
  row: OutboxRecord,
): Promise<Omit<repo.NewMessage, 'escalate_at'> | null> {
  const p = row.payload as MessagePayload
  switch (p.msg_type) {
    case MsgType.CALL: {
      // A call (modules/call): no device; the place and the caller's phone.
      const c = await repo.callFacts(tx, Number(p.call_id))
      if (!c) return null
      return {
        msg_type: MsgType.CALL,
        event_type: 1,
        event_id: c.id,
        device_id: null,
        device_sn: null,
        cabinet_sn: null,
        location: c.location,
        agency_id: c.agency_id,
        index_link: c.index_link,
        msg_time: new Date(c.call_time),
        detail: { phone: c.phone },
      }
    }
    case MsgType.RESCUE: {
      const r = await repo.rescueFacts(tx, Number(p.rescue_id))
      if (!r) return null
      return {
        msg_type: MsgType.RESCUE,
        event_type: 2,
        event_id: r.id,
        device_id: r.device_id,
        device_sn: r.device_sn,
        cabinet_sn: null,
        location: r.location,
        agency_id: r.agency_id,
        index_link: r.index_link,
        msg_time: new Date(r.event_time),
        detail: {},
      }
    }
    case MsgType.OFFSET: {
      const e = await repo.offsetFacts(tx, Number(p.event_id))
      if (!e) return null
      return {
        msg_type: MsgType.OFFSET,
        event_type: 3,
        event_id: e.id,
        device_id: e.device_id,
        device_sn: e.device_sn,
        cabinet_sn: null,
        location: e.location,
        agency_id: e.agency_id,
        index_link: e.index_link,
        msg_time: new Date(e.event_time),
        detail: { offset_distance: e.offset_distance },
      }
    }
    case MsgType.CABINET_DOOR: {
      // A cabinet door opened (cabinet/cabinet-engine.service.ts): the event is the door event.
      const e = await repo.doorFacts(tx, Number(p.door_event_id))
      if (!e) return null
      return {
        msg_type: MsgType.CABINET_DOOR,
        event_type: 4,
        event_id: e.id,
        device_id: e.device_id,
        device_sn: e.device_sn,
        cabinet_sn: e.cabinet_sn,
        location: e.location,
        agency_id: e.agency_id,
        index_link: e.index_link,
        msg_time: new Date(e.opened_at),
        detail: {},
      }
    }
    case MsgType.DEVICE_MESSAGE_UNAPPLIED: {
      // A device message the engine gave up on (engine/unapplied.ts): the row carries its facts
      // and the system organisation it is told to. Its event is the stored message (inbox row).
      const u = row.payload as UnappliedPayload
      if (row.agency_id === null || row.index_link === null) return null
      return {
        msg_type: MsgType.DEVICE_MESSAGE_UNAPPLIED,
        event_type: MsgType.DEVICE_MESSAGE_UNAPPLIED,
        event_id: u.inbox_id,
        device_id: u.sender_kind === 'aed' ? u.sender_id : null,
        device_sn: u.sender_kind === 'aed' ? u.sn : null,
        cabinet_sn: u.sender_kind === 'cabinet' ? u.sn : null,
        location: null,
        agency_id: row.agency_id,
        index_link: row.index_link,
        msg_time: new Date(u.failed_at),
        detail: {
          sender_kind: u.sender_kind,
          sender_id: u.sender_id,
          msg_id: u.msg_id,
          type: u.type,
          attempts: u.attempts,
          error: u.error,
        },
      }
    }
    default:
      throw new Error(`message type ${p.msg_type} has no producer yet`)
  }
}

/**
 * When an alarm of an organisation is first escalated if nobody confirms it (null: never). The
 * alert plan answers it; jobs/outbox.ts hands it in, so the message centre does not import the
 * alerts that build on it.
 */
export type FirstEscalation = (
  ctx: AppContext,
  tx: DbOrTx,
  agencyId: number,
  msgTime: Date,
) => Promise<Date | null>

/**
 * The outbox's `message` topic: writes the message once, sets an alarm's first escalation
 * time, and pushes it (with the popup's alarm for types 2 and 4) in the same transaction.
 * Type 5 (a dead device message) is no alarm: written and pushed to the system organisation.
 */
export function messageOutboxHandler(firstEscalationAt: FirstEscalation): OutboxHandler {
  return async (ctx, tx, row) => {
    const facts = await newMessageOf(tx, row)
    // The event is gone (its device's records were cleaned): nothing to tell.
    if (!facts) return
    const alarm = ALARM_MSG_TYPES.includes(facts.msg_type)
    const m = await repo.insertMessage(tx, {
      ...facts,
      escalate_at: alarm ? await firstEscalationAt(ctx, tx, facts.agency_id, facts.msg_time) : null,
    })
    if (!m) return
    if (alarm) await pushAlarm(ctx, tx, m, 0)
    await pushMessage(ctx, tx, m)
  }
}

/** A webhook endpoint disabled (type 6): which configuration, why, and the delivery that did it. */
export type WebhookDisabledNotice = {
  /** The delivery whose answer disabled it: the message's event (one message per delivery). */
  delivery_id: number
  config_id: number
  agency_id: number
  index_link: string
  push_url: string
  reason: 'gone' | 'failing'
  time: Date
}

/**
 * Tells an organisation's message centre that its webhook endpoint was disabled (type 6, no
 * alarm), in the caller's transaction, so the message commits with the disabling; pushed to its
 * consoles. jobs/webhook.ts hands it to the webhook sender, which does not import this module.
 */
export async function tellWebhookDisabled(ctx: AppContext, tx: DbOrTx, n: WebhookDisabledNotice) {
  const m = await repo.insertMessage(tx, {
    msg_type: MsgType.WEBHOOK_DISABLED,
    event_type: MsgType.WEBHOOK_DISABLED,
    event_id: n.delivery_id,
    device_id: null,
    device_sn: null,
    cabinet_sn: null,
    location: null,
    agency_id: n.agency_id,
    index_link: n.index_link,
    msg_time: n.time,
    detail: { config_id: n.config_id, push_url: n.push_url, reason: n.reason },
    escalate_at: null,
  })
  if (m) await pushMessage(ctx, tx, m)
}

/** A responder's certificate notice (type 7): expiring in `days` days, or expired. */
export type CertificateNotice = {
  /** The responder_changes row of the notice: the message's event (one message per notice). */
  change_id: number
  responder_id: number
  agency_id: number
  index_link: string
  name: string
  certificate_expire: string
  days: number
  expired: boolean
  time: Date
}

/**
 * Tells an organisation's message centre that a responder's certificate expires soon or has
 * expired (type 7, no alarm), in the caller's transaction, and pushes it to its consoles.
 */
export async function tellCertificateNotice(ctx: AppContext, tx: DbOrTx, n: CertificateNotice) {
  const m = await repo.insertMessage(tx, {
    msg_type: MsgType.RESPONDER_CERTIFICATE,
    event_type: MsgType.RESPONDER_CERTIFICATE,
    event_id: n.change_id,
    device_id: null,
    device_sn: null,
    cabinet_sn: null,
    location: null,
    agency_id: n.agency_id,
    index_link: n.index_link,
    msg_time: n.time,
    detail: {
      responder_id: n.responder_id,
      name: n.name,
      certificate_expire: n.certificate_expire,
      days: n.days,
      expired: n.expired,
    },
    escalate_at: null,
  })
  if (m) await pushMessage(ctx, tx, m)
}

/** A new public submission for the reviewers: a volunteer (type 8) or a third-party AED (9). */
export type ReviewSubmissionNotice = {
  kind: 'volunteer' | 'third_party'
  /** The submission's id (the message's event: one message per submission). */
  id: number
  /** The volunteer's name, or the AED's brand. */
  name: string
  /** The guarded area, or the AED's address. */
  place: string
  agency_id: number
  index_link: string
  time: Date
}

/**
 * Tells the system organisation's message centre of a new submission to review (type 8 or 9, no
 * alarm), in the caller's transaction, and pushes it to its consoles.
 */
export async function tellReviewSubmission(ctx: AppContext, tx: DbOrTx, n: ReviewSubmissionNotice) {
  const m = await repo.insertMessage(tx, {
    // One message per submission: (msg_type, event_id) is unique, so each kind has its type.
    msg_type: n.kind === 'volunteer' ? MsgType.REVIEW_SUBMISSION : MsgType.REVIEW_AED_SUBMISSION,
    event_type: n.kind === 'volunteer' ? MsgType.REVIEW_SUBMISSION : MsgType.REVIEW_AED_SUBMISSION,
    event_id: n.id,
    device_id: null,
    device_sn: null,
    cabinet_sn: null,
    location: n.place,
    agency_id: n.agency_id,
    index_link: n.index_link,
    msg_time: n.time,
    detail: { kind: n.kind, review_id: n.id, name: n.name },
    escalate_at: null,
  })
  if (m) await pushMessage(ctx, tx, m)
}

/** What the live channel shows of the message centre (app.ts hands it to the live channel). */
export const messagesForLive: LiveMessages = {
  frame: (data, lang) => presentMessage(data as unknown as repo.MessageDbRow, lang),
  unconfirmedCount: (db, indexLink) => repo.unconfirmedCount(db, indexLink),
}
