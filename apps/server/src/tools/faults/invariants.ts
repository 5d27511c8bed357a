import type pg from 'pg'
import { messageId } from '../../modules/webhook/webhook.presenter.ts'
import type { Received } from '../../test/webhook-receiver.ts'
import type { Console } from './consoles.ts'
import type { SentMessage } from './load.ts'

// What must hold after every fault, read from the cluster's PostgreSQL and from what the load,
// the consoles and the webhook receiver saw. Each check answers its problems in words (empty:
// it holds) and the numbers the table prints.

/** Inbox outcomes of a message the engine is done with. */
const DONE = new Set(['applied', 'stale', 'coalesced', 'ignored'])

/** How long past its retry time a row may still wait: the job runner ticks every 15 s. */
const SLACK_S = 20
/** A failed inbox row waits for engine-retry, which runs once a minute. */
const INBOX_SLACK_S = 90

export type Counts = { sent: number; acknowledged: number; applied: number; lost: number }

export type Verdict = { counts: Counts; problems: string[]; notes: string[] }

const q = async <T extends pg.QueryResultRow>(db: pg.Client, text: string, values: unknown[] = []) =>
  (await db.query<T>(text, values)).rows

/**
 * Installs the job-run log: a trigger on job_runs (jobs/runner.ts writes last_started_at when a
 * job starts and last_run_at or last_error_at when it ends, on the connection holding the job's
 * advisory lock) records each start and end with the backend and its application_name (the
 * instance). A start while another live backend's run of the same job has not ended is an overlap.
 * The server records no run of its own; this needs no change to it.
 */
export async function installJobLog(db: pg.Client) {
  await db.query(`
    CREATE TABLE IF NOT EXISTS fault_job_log (
      id bigserial PRIMARY KEY, name text NOT NULL, event text NOT NULL, pid int NOT NULL,
      app text, at timestamptz NOT NULL DEFAULT clock_timestamp(), overlapping int[]);
    CREATE OR REPLACE FUNCTION fault_job_log() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE started boolean; ended boolean; others int[];
    BEGIN
      started := TG_OP = 'INSERT' OR NEW.last_started_at IS DISTINCT FROM OLD.last_started_at;
      ended := TG_OP = 'UPDATE' AND (NEW.last_run_at IS DISTINCT FROM OLD.last_run_at
        OR NEW.last_error_at IS DISTINCT FROM OLD.last_error_at);
      IF started THEN
        SELECT array_agg(s.pid) INTO others FROM fault_job_log s
        WHERE s.name = NEW.name AND s.event = 'start' AND s.pid <> pg_backend_pid()
          AND s.pid IN (SELECT a.pid FROM pg_stat_activity a)
          AND NOT EXISTS (SELECT 1 FROM fault_job_log e
                          WHERE e.name = s.name AND e.pid = s.pid AND e.event = 'end' AND e.id > s.id);
        INSERT INTO fault_job_log (name, event, pid, app, overlapping)
        VALUES (NEW.name, 'start', pg_backend_pid(), current_setting('application_name'), others);
      END IF;
      IF ended THEN
        INSERT INTO fault_job_log (name, event, pid, app)
        VALUES (NEW.name, 'end', pg_backend_pid(), current_setting('application_name'));
      END IF;
      RETURN NEW;
    END $$;
    DROP TRIGGER IF EXISTS fault_job_log ON job_runs;
    CREATE TRIGGER fault_job_log AFTER INSERT OR UPDATE ON job_runs
      FOR EACH ROW EXECUTE FUNCTION fault_job_log();`)
}

/**
 * Every acknowledged message of `sent` is in the inbox once and done, and what it makes was made
 * once: a rescue start is one rescue with one step and one alarm message, a self-test one
 * detection record. Lost: acknowledged and not so.
 */
export async function checkMessages(db: pg.Client, sent: SentMessage[], since: Date): Promise<Verdict> {
  const problems: string[] = []
  const sns = [...new Set(sent.map((m) => m.sn))]
  const inbox = await q<{ sn: string; msg_id: string; outcome: string | null; processed: boolean }>(
    db,
    `SELECT d.device_sn AS sn, i.msg_id, i.outcome, i.processed_at IS NOT NULL AS processed
     FROM device_inbox i JOIN devices d ON d.id = i.sender_id
     WHERE i.sender_kind = 'aed' AND d.device_sn = ANY($1) AND i.msg_id = ANY($2)`,
    [sns, sent.map((m) => m.id)],
  )
  const rows = new Map<string, (typeof inbox)[number][]>()
  for (const r of inbox) rows.set(`${r.sn}/${r.msg_id}`, [...(rows.get(`${r.sn}/${r.msg_id}`) ?? []), r])
  const rescues = sent.filter((m) => m.rescue).map((m) => m.rescue as string)
  const made = await q<{ rescue: string; rescues: number; steps: number; alarms: number }>(
    db,
    `SELECT r.rescue_event_id AS rescue, count(DISTINCT r.id)::int AS rescues,
       (SELECT count(*) FROM device_usage_logs u WHERE u.rescue_event_id = r.rescue_event_id)::int AS steps,
       (SELECT count(*) FROM messages m WHERE m.msg_type = 2 AND m.event_id = ANY(array_agg(r.id)))::int AS alarms
     FROM rescue_events r WHERE r.rescue_event_id = ANY($1) GROUP BY r.rescue_event_id`,
    [rescues],
  )
  const byRescue = new Map(made.map((r) => [r.rescue, r]))
  const twiceDetected = await q<{ sn: string; at: string; n: number }>(
    db,
    `SELECT d.device_sn AS sn, t.check_time::text AS at, count(*)::int AS n
     FROM device_detections t JOIN devices d ON d.id = t.device_id
     WHERE d.device_sn = ANY($1) AND t.create_time >= $2 GROUP BY 1, 2 HAVING count(*) > 1`,
    [sns, since],
  )
  for (const t of twiceDetected) problems.push(`self-test of ${t.sn} at ${t.at} recorded ${t.n} times`)
  let acknowledged = 0
  let applied = 0
  let lost = 0
  for (const m of sent) {
    const r = rows.get(`${m.sn}/${m.id}`) ?? []
    const done = r.length === 1 && r[0].processed && DONE.has(r[0].outcome ?? '')
    if (done) applied++
    if (m.refused) problems.push(`${m.sn} ${m.id} (${m.type}) refused: ${m.refused}`)
    if (m.ackedAt === null) continue
    acknowledged++
    let why = ''
    if (r.length !== 1) why = `${r.length} inbox rows`
    else if (!done) why = `inbox ${r[0].processed ? r[0].outcome : 'not processed'}`
    else if (m.rescue && r[0].outcome === 'applied') {
      const x = byRescue.get(m.rescue)
      if (!x || x.rescues !== 1 || x.steps !== 1 || x.alarms !== 1)
        why = `rescue ${m.rescue}: ${x?.rescues ?? 0} rescues, ${x?.steps ?? 0} steps, ${x?.alarms ?? 0} alarm messages`
    }
    if (why) {
      lost++
      if (lost <= 10) problems.push(`acknowledged ${m.sn} ${m.id} (${m.type}, ${m.transport}): ${why}`)
    }
  }
  if (lost > 10) problems.push(`… ${lost - 10} more acknowledged messages lost`)
  return { counts: { sent: sent.length, acknowledged, applied, lost }, problems, notes: [] }
}

/**
 * Every first-aid alarm of the load's devices made since `since` reached every console that had
 * joined before it was made (live, or in the replay it asked for on reconnecting), and at least
 * one console that is open now.
 */
export async function checkAlarms(
  db: pg.Client,
  sns: string[],
  consoles: Console[],
  since: Date,
  firstJoinAt: Map<number, number>,
): Promise<Verdict> {
  const alarms = await q<{ id: number; made: Date }>(
    db,
    `SELECT m.id::int, m.create_time AS made FROM messages m
     WHERE m.msg_type = 2 AND m.device_sn = ANY($1) AND m.create_time >= $2 ORDER BY m.id`,
    [sns, since],
  )
  const problems: string[] = []
  let replayed = 0
  for (const a of alarms) {
    const due = consoles.filter((c) => (firstJoinAt.get(c.i) ?? Number.POSITIVE_INFINITY) < a.made.getTime())
    const missed = due.filter((c) => !c.alarms.has(a.id))
    for (const c of due) if (c.alarms.get(a.id)?.replayed) replayed++
    if (missed.length > 0)
      problems.push(
        `alarm message ${a.id} missed by ${missed.length} console(s): ${missed.map((c) => `#${c.i} ${c.via}`).join(', ')}`,
      )
    if (!consoles.some((c) => c.open && c.alarms.has(a.id)))
      problems.push(`alarm message ${a.id} reached no open console`)
  }
  return {
    counts: { sent: 0, acknowledged: 0, applied: 0, lost: 0 },
    problems: problems.slice(0, 10),
    notes: [`${alarms.length} alarms, ${replayed} console copies came in a replay`],
  }
}

/**
 * SMS and webhooks went out once per key: no two SMS rows of one idempotency key, and each webhook the receiver got carries the id of a delivery
 * row (a repeat only with the same id), every delivered row was received.
 */
export async function checkNotifications(
  db: pg.Client,
  configId: number,
  received: Received[],
): Promise<Verdict> {
  const problems: string[] = []
  const doubleKeys = await q<{ key: string; n: number }>(
    db,
    `SELECT idempotency_key AS key, count(*)::int AS n FROM sms_outbox
     WHERE idempotency_key IS NOT NULL GROUP BY 1 HAVING count(*) > 1`,
  )
  for (const d of doubleKeys) problems.push(`SMS key ${d.key} sent ${d.n} times`)
  // Sent again after an attempt whose outcome was unknown: the provider may have had it twice.
  const sms = await q<{ n: number; retried: number }>(
    db,
    `SELECT count(*)::int AS n, count(*) FILTER (WHERE attempts > 1 AND status = 'sent')::int AS retried
     FROM sms_outbox WHERE kind <> 'code'`,
  )
  const deliveries = await q<{ id: number; event_key: string; state: string }>(
    db,
    'SELECT id::int, event_key, state FROM webhook_deliveries WHERE config_id = $1',
    [configId],
  )
  const ids = new Map(deliveries.map((d) => [messageId(d.id), d]))
  const got = new Map<string, number>()
  for (const r of received) got.set(r.id, (got.get(r.id) ?? 0) + 1)
  for (const id of got.keys())
    if (!ids.has(id)) problems.push(`webhook ${id} received but no delivery row has it`)
  let repeats = 0
  for (const n of got.values()) repeats += n - 1
  const unreceived = deliveries.filter((d) => d.state === 'delivered' && !got.has(messageId(d.id)))
  if (unreceived.length > 0)
    problems.push(`${unreceived.length} webhook deliveries marked delivered were never received`)
  return {
    counts: { sent: 0, acknowledged: 0, applied: 0, lost: 0 },
    problems,
    notes: [
      `${sms[0].n} SMS (${sms[0].retried} sent after a retry), ${deliveries.length} webhook deliveries, ${repeats} repeated with their id`,
    ],
  }
}

/** No job started while another live backend's run of it had not ended (fault_job_log). */
export async function checkJobs(db: pg.Client, since: Date): Promise<Verdict> {
  const overlaps = await q<{ name: string; app: string; overlapping: number[] }>(
    db,
    `SELECT name, app, overlapping FROM fault_job_log
     WHERE event = 'start' AND at >= $1 AND cardinality(overlapping) > 0`,
    [since],
  )
  const runs = await q<{ n: number }>(
    db,
    `SELECT count(*)::int AS n FROM fault_job_log WHERE event = 'start' AND at >= $1`,
    [since],
  )
  return {
    counts: { sent: 0, acknowledged: 0, applied: 0, lost: 0 },
    problems: overlaps.map(
      (o) => `job ${o.name} started on ${o.app} while backend(s) ${o.overlapping.join(', ')} ran it`,
    ),
    notes: [`${runs[0].n} job runs`],
  }
}

/** What is still pending past its retry time (plus the runner's tick): outbox, SMS, alert lines, webhooks, inbox. */
export async function pendingPastRetry(db: pg.Client): Promise<string[]> {
  const rows = await q<{ what: string; n: number }>(
    db,
    `SELECT 'outbox' AS what, count(*)::int AS n FROM outbox
       WHERE done_at IS NULL AND available_at < now() - make_interval(secs => $1)
     UNION ALL SELECT 'sms_outbox', count(*)::int FROM sms_outbox
       WHERE status = 'pending' AND available_at < now() - make_interval(secs => $1)
     UNION ALL SELECT 'sms_alerts', count(*)::int FROM sms_alerts
       WHERE sms_id IS NULL AND due_at < now() - make_interval(secs => $1)
     UNION ALL SELECT 'webhook_deliveries', count(*)::int FROM webhook_deliveries
       WHERE state = 'pending' AND next_at < now() - make_interval(secs => $1)
         AND (leased_until IS NULL OR leased_until < now())
     UNION ALL SELECT 'device_inbox', count(*)::int FROM device_inbox
       WHERE (processed_at IS NULL OR outcome = 'failed') AND received_at < now() - make_interval(secs => $2)`,
    [SLACK_S, INBOX_SLACK_S],
  )
  return rows.filter((r) => r.n > 0).map((r) => `${r.n} ${r.what} row(s) pending past their retry time`)
}
