import type { AgencySettings } from '@aed/contracts/settings'
import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import type { agencies, messages, smsAlerts, smsOutbox } from '../../db/schema.ts'
import { many, one } from '../../db/sql.ts'

const iso = (d: Date) => d.toISOString()

/** What planning an alert needs of a device: its installation, organisation, settings and who to tell. */
export type DeviceAlertFacts = {
  device_sn: string
  agency_id: number
  /** The organisation's contact number (may be a landline). */
  agency_phone: string | null
  location: string | null
  sms_off: number
  config: Partial<AgencySettings> | null
  /** The installation's manager's mobile, when the manager's membership is still valid. */
  manager_phone: string | null
}

/** The device's facts as the engine sees them: the installation's organisation, else the factory owner. */
export function deviceAlertFacts(db: DbOrTx, deviceId: number, now: Date) {
  return one<DeviceAlertFacts>(
    db,
    sql`
    SELECT d.device_sn, a.id AS agency_id, a.phone AS agency_phone, i.location,
      coalesce(i.disable_abnormal_sms_notify, 0) AS sms_off, st.config,
      (SELECT ac.phone FROM members m JOIN accounts ac ON ac.id = m.account_id
        WHERE m.id = i.device_manager_id AND (m.use_expire IS NULL OR m.use_expire > ${iso(now)}::timestamptz)
      ) AS manager_phone
    FROM devices d
    LEFT JOIN installations i ON i.id = d.installation_id AND i.removed_at IS NULL
    JOIN agencies a ON a.id = coalesce(i.agency_id, d.agency_id)
    LEFT JOIN agency_settings st ON st.agency_id = a.id
    WHERE d.id = ${deviceId}`,
  )
}

/** What planning a call's SMS needs: its owner's contact number and settings, the place and the caller. */
export function callAlertFacts(db: DbOrTx, callId: number) {
  return one<{
    agency_id: number
    agency_phone: string | null
    config: Partial<AgencySettings> | null
    location: string
    phone: string
  }>(
    db,
    sql`SELECT a.id AS agency_id, a.phone AS agency_phone, st.config, c.location, c.phone
        FROM call_events c JOIN agencies a ON a.id = c.agency_id
        LEFT JOIN agency_settings st ON st.agency_id = a.id
        WHERE c.id = ${callId}`,
  )
}

/** An organisation's saved settings (null until saved). */
export async function agencyConfig(db: DbOrTx, agencyId: number) {
  const row = await one<{ config: Partial<AgencySettings> }>(
    db,
    sql`SELECT config FROM agency_settings WHERE agency_id = ${agencyId}`,
  )
  return row?.config ?? null
}

type SmsAlert = typeof smsAlerts.$inferSelect

export type NewAlert = {
  kind: SmsAlert['kind']
  dedupeKey: string
  phone: string
  agencyId: number | null
  deviceId: number | null
  messageId?: number | null
  line: string
  dueAt: Date
}

/** Queues one line; answers false when its dedupe key was already queued. */
export async function queueAlert(db: DbOrTx, a: NewAlert, now: Date): Promise<boolean> {
  const rows = await many<{ id: number }>(
    db,
    sql`
    INSERT INTO sms_alerts (kind, dedupe_key, phone, agency_id, device_id, message_id, line, due_at, create_time)
    VALUES (${a.kind}, ${a.dedupeKey}, ${a.phone}, ${a.agencyId}, ${a.deviceId}, ${a.messageId ?? null},
      ${a.line}, ${iso(a.dueAt)}::timestamptz, ${iso(now)}::timestamptz)
    ON CONFLICT (dedupe_key) DO NOTHING RETURNING id`,
  )
  return rows.length > 0
}

export type DueAlert = Pick<SmsAlert, 'id' | 'kind' | 'phone' | 'line'>

/** Due lines not yet in an SMS, one phone's together, locked for this transaction. */
export function takeDueAlerts(tx: DbOrTx, now: Date, limit: number) {
  return many<DueAlert>(
    tx,
    sql`
    SELECT id, kind, phone, line FROM sms_alerts
    WHERE sms_id IS NULL AND due_at <= ${iso(now)}::timestamptz
    ORDER BY phone, id LIMIT ${limit}
    FOR UPDATE SKIP LOCKED`,
  )
}

/** Writes an SMS waiting to be sent and ties its lines to it. */
export async function insertPendingSms(
  tx: DbOrTx,
  s: { phone: string; content: string; kind: string; key: string; alertIds: number[] },
  now: Date,
) {
  const row = await one<{ id: number }>(
    tx,
    sql`
    INSERT INTO sms_outbox (phone, content, kind, idempotency_key, status, available_at, create_time)
    VALUES (${s.phone}, ${s.content}, ${s.kind}, ${s.key}, 'pending', ${iso(now)}::timestamptz, ${iso(now)}::timestamptz)
    RETURNING id`,
  )
  const id = row!.id
  await tx.execute(
    sql`UPDATE sms_alerts SET sms_id = ${id} WHERE id IN (${sql.join(
      s.alertIds.map((a) => sql`${a}`),
      sql`, `,
    )})`,
  )
  return id
}

/**
 * Queues one SMS that no alert line plans (a responder's certificate reminder); the key makes a
 * second queueing of the same notice a no-op. Sent by the dispatch job like every other.
 */
export async function queueSms(
  tx: DbOrTx,
  s: { phone: string; content: string; kind: string; key: string },
  now: Date,
) {
  await tx.execute(sql`
    INSERT INTO sms_outbox (phone, content, kind, idempotency_key, status, available_at, create_time)
    VALUES (${s.phone}, ${s.content}, ${s.kind}, ${s.key}, 'pending', ${iso(now)}::timestamptz, ${iso(now)}::timestamptz)
    ON CONFLICT (idempotency_key) DO NOTHING`)
}

export type PendingSms = Pick<typeof smsOutbox.$inferSelect, 'id' | 'phone' | 'content' | 'attempts'> & {
  /** Set on every pending SMS (insertPendingSms). */
  idempotency_key: string
}

/** Pending SMS that are due, locked; the caller leases them before sending. */
export function duePendingSms(tx: DbOrTx, now: Date, limit: number) {
  return many<PendingSms>(
    tx,
    sql`
    SELECT id, phone, content, idempotency_key, attempts FROM sms_outbox
    WHERE status = 'pending' AND available_at <= ${iso(now)}::timestamptz
    ORDER BY available_at, id LIMIT ${limit}
    FOR UPDATE SKIP LOCKED`,
  )
}

/** Counts an attempt and moves the SMS out of reach until `retryAt` (the lease of this send). */
export async function leaseSms(tx: DbOrTx, id: number, retryAt: Date) {
  await tx.execute(
    sql`UPDATE sms_outbox SET attempts = attempts + 1, available_at = ${iso(retryAt)}::timestamptz WHERE id = ${id}`,
  )
}

export async function markSent(db: DbOrTx, id: number, provider: string, now: Date) {
  await db.execute(sql`
    UPDATE sms_outbox SET status = 'sent', sent_at = ${iso(now)}::timestamptz, provider = ${provider}, last_error = NULL
    WHERE id = ${id}`)
}

/** Records a failed attempt; the SMS fails for good when it had its last one. */
export async function markFailedAttempt(
  db: DbOrTx,
  id: number,
  provider: string,
  error: string,
  last: boolean,
) {
  await db.execute(sql`
    UPDATE sms_outbox SET last_error = ${error.slice(0, 500)}, provider = ${provider},
      status = ${last ? 'failed' : 'pending'}
    WHERE id = ${id}`)
}

/** An alarm message due for its next escalation step, with its organisation's path. */
export type EscalatingMessage = Pick<
  typeof messages.$inferSelect,
  'id' | 'msg_type' | 'device_sn' | 'cabinet_sn' | 'location' | 'agency_id' | 'msg_time' | 'escalation_level'
> & { agency_path: string }

/** Ids of unconfirmed alarms whose next step is due, oldest first. */
export async function dueEscalations(db: DbOrTx, now: Date, limit: number) {
  const rows = await many<{ id: number }>(
    db,
    sql`
    SELECT id FROM messages
    WHERE escalate_at <= ${iso(now)}::timestamptz AND is_confirm = 0
    ORDER BY escalate_at, id LIMIT ${limit}`,
  )
  return rows.map((r) => r.id)
}

/** Locks one message if it is still unconfirmed and due (another instance may have taken it). */
export function lockDueMessage(tx: DbOrTx, id: number, now: Date) {
  return one<EscalatingMessage>(
    tx,
    sql`
    SELECT m.id, m.msg_type, m.device_sn, m.cabinet_sn, m.location, m.agency_id, a.index_link AS agency_path,
      m.msg_time, m.escalation_level
    FROM messages m JOIN agencies a ON a.id = m.agency_id
    WHERE m.id = ${id} AND m.is_confirm = 0 AND m.escalate_at <= ${iso(now)}::timestamptz
    FOR UPDATE OF m SKIP LOCKED`,
  )
}

export function agencyName(db: DbOrTx, id: number) {
  return one<Pick<typeof agencies.$inferSelect, 'id' | 'name' | 'disabled'>>(
    db,
    sql`SELECT id, name, disabled FROM agencies WHERE id = ${id}`,
  )
}

/** Mobiles of an organisation's administrators (super administrators and administrators) whose membership is valid. */
export async function administratorPhones(db: DbOrTx, agencyId: number, now: Date) {
  const rows = await many<{ phone: string }>(
    db,
    sql`
    SELECT DISTINCT ac.phone FROM members m JOIN accounts ac ON ac.id = m.account_id
    WHERE m.agency_id = ${agencyId} AND m.role_type IN (0, 1)
      AND (m.use_expire IS NULL OR m.use_expire > ${iso(now)}::timestamptz)
    ORDER BY ac.phone`,
  )
  return rows.map((r) => r.phone)
}

/** Records one escalation step and moves the message to its next (or none). */
export async function recordEscalation(
  tx: DbOrTx,
  s: {
    messageId: number
    level: number
    agencyId: number
    agencyName: string
    recipients: number
    next: Date | null
  },
  now: Date,
) {
  await tx.execute(sql`
    INSERT INTO message_escalations (message_id, level, agency_id, agency_name, recipients, create_time)
    VALUES (${s.messageId}, ${s.level}, ${s.agencyId}, ${s.agencyName}, ${s.recipients}, ${iso(now)}::timestamptz)
    ON CONFLICT (message_id, level) DO NOTHING`)
  await tx.execute(sql`
    UPDATE messages SET escalation_level = ${s.level},
      escalate_at = ${s.next ? iso(s.next) : null}::timestamptz
    WHERE id = ${s.messageId}`)
}

/** Stops the escalation of a message (the top of the tree was passed). */
export async function stopEscalation(tx: DbOrTx, messageId: number) {
  await tx.execute(sql`UPDATE messages SET escalate_at = NULL WHERE id = ${messageId}`)
}
