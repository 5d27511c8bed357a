import { z } from 'zod'
import { get, idParams, put } from './endpoint.ts'
import { paged, pageQuery, pageSize } from './envelope.ts'

/**
 * Message types (msg_type): 1 call, 2 rescue (first aid), 3 location offset, 4 cabinet door open,
 * 5 a device message the engine could not apply after every retry (the system organisation's
 * only; not an alarm), 6 a webhook endpoint disabled (its organisation's; not an alarm), 7 a
 * responder's certificate expiring within 30 or 7 days or expired (its organisation's; not an alarm).
 */
export const MsgType = {
  CALL: 1,
  RESCUE: 2,
  OFFSET: 3,
  CABINET_DOOR: 4,
  DEVICE_MESSAGE_UNAPPLIED: 5,
  WEBHOOK_DISABLED: 6,
  RESPONDER_CERTIFICATE: 7,
  /** A new public volunteer for the system organisation's reviewers (detail.kind 'volunteer'). */
  REVIEW_SUBMISSION: 8,
  /** A new third-party AED for the reviewers (detail.kind 'third_party'). */
  REVIEW_AED_SUBMISSION: 9,
} as const
/** Types that are alarms: pushed to the popup (a call as a first-aid alarm), escalated when nobody confirms them. */
export const ALARM_MSG_TYPES: readonly number[] = [MsgType.CALL, MsgType.RESCUE, MsgType.CABINET_DOOR]
/** A message older than this is shown as stale in the message centre. */
export const MESSAGE_STALE_MS = 10 * 60_000
/** The message centre's page size (spec section 9). */
export const MESSAGE_PAGE_SIZE = 10

/** One escalation step of an unconfirmed alarm: whose administrators were told, and when. */
export const escalationSchema = z.object({
  level: z.number().int(),
  agency_name: z.string(),
  recipients: z.number().int(),
  create_time: z.string(),
})

/** A message of the message centre, as listed, fetched and pushed. */
export const messageSchema = z.object({
  id: z.number().int(),
  msg_type: z.number().int(),
  /** The title in the reader's language, e.g. 急救事件：设备 A640000001 开始使用. */
  msg_title: z.string(),
  msg_time: z.string(),
  device_sn: z.string().nullable(),
  cabinet_sn: z.string().nullable(),
  location: z.string().nullable(),
  agency_name: z.string(),
  /** 0 unconfirmed, 1 confirmed (for everyone who sees it). */
  is_confirm: z.number().int(),
  /**
   * What the dashboard opens: 1 call, 2 rescue, 3 offset, 4 cabinet door; and its id. Type 5's
   * event is the stored device message (event_type 5, the inbox row's id): nothing to open.
   */
  event_type: z.number().int(),
  event_id: z.number().int(),
  confirmed_name: z.string().nullable(),
  confirm_time: z.string().nullable(),
  /** Escalation steps taken while it stayed unconfirmed, oldest first (detail only; [] in lists). */
  escalations: z.array(escalationSchema),
})
export type MessageRow = z.infer<typeof messageSchema>

export const messageListQuery = pageQuery.extend({
  page_size: pageSize(100, MESSAGE_PAGE_SIZE),
  /** 0: unconfirmed only; 1: confirmed only; absent: all. */
  is_confirm: z.coerce.number().int().min(0).max(1).optional(),
})
export type MessageListQuery = z.output<typeof messageListQuery>

/** The message centre and the bell's count. */
export const messageApi = {
  list: get('/api/v1/system/msg-center', {
    summary: 'Messages of the subtree, newest first (page_size 10)',
    query: messageListQuery,
    response: paged(messageSchema),
  }),
  detail: get('/api/v1/system/msg-center/:id', {
    summary: 'One message with who confirmed it and its escalation steps',
    params: idParams,
    response: messageSchema,
  }),
  confirm: put('/api/v1/system/msg-center/:id', {
    summary: 'Confirm a message for everyone who sees it (idempotent); stops its escalation',
    params: idParams,
    body: z.object({}).passthrough().optional(),
    response: z.object({ success: z.boolean(), message: messageSchema }),
  }),
  unconfirmedAmount: get('/api/v1/device/unconfirmed-msg/amount/', {
    summary: 'How many messages of the subtree are unconfirmed (the bell)',
    response: z.object({ amount: z.number().int() }),
  }),
}
