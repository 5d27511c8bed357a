import { type Lang, type MessageKey, translate } from '@aed/contracts'
import type { LiveAlarmData } from '@aed/contracts/live'
import { type MessageRow, MsgType } from '@aed/contracts/message'
import { formatDateTime } from '../../lib/time.ts'
import type { MessageDbRow } from './message.repository.ts'

const TITLES: Record<number, MessageKey> = {
  [MsgType.CALL]: 'MSG_TITLE_CALL',
  [MsgType.RESCUE]: 'MSG_TITLE_RESCUE',
  [MsgType.OFFSET]: 'MSG_TITLE_OFFSET',
  [MsgType.CABINET_DOOR]: 'MSG_TITLE_CABINET_DOOR',
  [MsgType.DEVICE_MESSAGE_UNAPPLIED]: 'MSG_TITLE_UNAPPLIED',
  [MsgType.WEBHOOK_DISABLED]: 'MSG_TITLE_WEBHOOK_DISABLED',
  [MsgType.RESPONDER_CERTIFICATE]: 'MSG_TITLE_CERT_EXPIRING',
  [MsgType.REVIEW_SUBMISSION]: 'MSG_REVIEW_VOLUNTEER',
  [MsgType.REVIEW_AED_SUBMISSION]: 'MSG_REVIEW_AED',
}

/** Why a webhook endpoint was disabled (type 6), in the reader's language. */
const DISABLED_REASONS: Record<string, MessageKey> = {
  gone: 'WEBHOOK_DISABLED_GONE',
  failing: 'WEBHOOK_DISABLED_FAILING',
}

/** A distance in metres as people say it: 850 米, 1.2 公里. */
export function distanceText(metres: number, lang: Lang): string {
  const en = lang === 'en-US'
  if (metres < 1000) return `${Math.round(metres)}${en ? ' m' : ' 米'}`
  return `${(metres / 1000).toFixed(1)}${en ? ' km' : ' 公里'}`
}

const time = (iso: string | null) => (iso ? formatDateTime(new Date(iso)) : null)

/** The message as listed, fetched and pushed, its title in the reader's language. */
export function presentMessage(
  m: MessageDbRow,
  lang: Lang,
  escalations: { level: number; agency_name: string; recipients: number; create_time: Date }[] = [],
): MessageRow {
  const distance = typeof m.detail.offset_distance === 'number' ? m.detail.offset_distance : null
  const text = (v: unknown) => (typeof v === 'string' ? v : '')
  // Type 7 has two titles: the reminder before expiry, and the expiry itself.
  const title =
    m.msg_type === MsgType.RESPONDER_CERTIFICATE && m.detail.expired
      ? 'MSG_TITLE_CERT_EXPIRED'
      : TITLES[m.msg_type]
  return {
    id: m.id,
    msg_type: m.msg_type,
    // A type this server has no title for (written by a newer one) shows its type, not a crash.
    msg_title: title
      ? translate(title, lang, {
          device_sn: m.device_sn ?? '',
          cabinet_sn: m.cabinet_sn ?? '',
          location: m.location ?? '',
          distance: distance === null ? '' : distanceText(distance, lang),
          // Type 5: the sender (either serial) and the message it could not apply.
          sn:
            m.device_sn ??
            m.cabinet_sn ??
            `${text(m.detail.sender_kind)}#${String(m.detail.sender_id ?? '')}`,
          msg_id: text(m.detail.msg_id),
          type: text(m.detail.type),
          // Type 6: the endpoint and why it was disabled.
          push_url: text(m.detail.push_url),
          // Type 7: whose certificate, and its expiry date.
          name: text(m.detail.name),
          date: text(m.detail.certificate_expire),
          reason: DISABLED_REASONS[text(m.detail.reason)]
            ? translate(DISABLED_REASONS[text(m.detail.reason)], lang)
            : text(m.detail.reason),
        })
      : `#${m.msg_type}`,
    msg_time: time(m.msg_time) as string,
    device_sn: m.device_sn,
    cabinet_sn: m.cabinet_sn,
    location: m.location,
    agency_name: m.agency_name,
    is_confirm: m.is_confirm,
    event_type: m.event_type,
    event_id: m.event_id,
    confirmed_name: m.confirmed_name,
    confirm_time: time(m.confirm_time),
    escalations: escalations.map((e) => ({
      level: e.level,
      agency_name: e.agency_name,
      recipients: e.recipients,
      create_time: formatDateTime(new Date(e.create_time)),
    })),
  }
}

/** The popup's alarm (data_type 2 or 4) of an alarm message, at an escalation level. */
export function presentAlarm(m: MessageDbRow, level: number): LiveAlarmData {
  return {
    data_time: time(m.msg_time) as string,
    location: m.location,
    cabinet_sn: m.cabinet_sn,
    device_sn: m.device_sn,
    agency_name: m.agency_name,
    msg_id: m.id,
    event_type: m.event_type,
    event_id: m.event_id,
    escalation_level: level,
  }
}
