import { sql } from 'drizzle-orm'
import type { Database } from '../../../db/client.ts'
import { many } from '../../../db/sql.ts'
import type { SentCall } from './types.ts'

// 5. What the calls left in the database, read with the servers stopped (PGlite is one process's):
// each call's first alert SMS, the links the responders open, and the invariants of target 3.

/** A bigint array parameter. */
const ids = (xs: number[]) => `{${xs.join(',')}}`

/** Per call: its dispatch, its first alert's SMS create_time and its started step's time (ms since the epoch). */
export async function firstSms(database: Database, calls: SentCall[]) {
  const rows = await many<{
    call_id: number
    dispatch_id: number | null
    started: Date | null
    sms: Date | null
  }>(
    database.db,
    sql`SELECT c.id AS call_id, d.id AS dispatch_id,
               (SELECT min(s.time) FROM dispatch_steps s WHERE s.dispatch_id = d.id AND s.kind = 'started') AS started,
               (SELECT o.create_time FROM dispatch_alerts x JOIN sms_outbox o ON o.idempotency_key = 'dispatch:' || x.id
                WHERE x.dispatch_id = d.id ORDER BY x.id LIMIT 1) AS sms
        FROM call_events c LEFT JOIN dispatches d ON d.call_id = c.id
        WHERE c.id = ANY(${ids(calls.flatMap((c) => (c.id === null ? [] : [c.id])))}::bigint[])`,
  )
  return new Map(
    rows.map((r) => [
      r.call_id,
      { dispatch: r.dispatch_id, started: r.started?.getTime() ?? null, sms: r.sms?.getTime() ?? null },
    ]),
  )
}

/** Each alerted responder's links (the tokens in their alert SMS), oldest alert first. */
export async function alertLinks(database: Database, calls: SentCall[]) {
  const rows = await many<{ responder_id: number; content: string }>(
    database.db,
    sql`SELECT x.responder_id, o.content FROM call_events c JOIN dispatches d ON d.call_id = c.id
        JOIN dispatch_alerts x ON x.dispatch_id = d.id JOIN sms_outbox o ON o.idempotency_key = 'dispatch:' || x.id
        WHERE c.id = ANY(${ids(calls.flatMap((c) => (c.id === null ? [] : [c.id])))}::bigint[]) ORDER BY x.id`,
  )
  const links = new Map<number, string[]>()
  for (const r of rows) {
    const token = /\/rescue\/([A-Za-z0-9_-]+)/.exec(r.content)?.[1]
    if (!token) continue
    links.set(r.responder_id, [...(links.get(r.responder_id) ?? []), token])
  }
  return links
}

/**
 * Target 3's invariants over the dispatches of `calls`: each a count of what broke one. Besides the
 * brief's four: dispatches past their enough (more accepted than dispatch_enough, or as many and
 * still running), which the accept that reaches it must prevent.
 */
export async function invariants(database: Database, calls: SentCall[]) {
  const callIds = ids(calls.flatMap((c) => (c.id === null ? [] : [c.id])))
  const [r] = await many<{
    calls: number
    without: number
    outbox_left: number
    dispatches: number
    alerts: number
    sms: number
    alerts_without_one_sms: number
    stray_sms: number
    twice_in_one: number
    accepted: number
    two_accepted: number
    alerted_by_several: number
    enough: number
    past_enough: number
  }>(
    database.db,
    sql`WITH c AS (SELECT id FROM call_events WHERE id = ANY(${callIds}::bigint[])),
             d AS (SELECT d.* FROM dispatches d JOIN c ON c.id = d.call_id),
             x AS (SELECT x.* FROM dispatch_alerts x JOIN d ON d.id = x.dispatch_id),
             acc AS (SELECT d.id, d.state, (d.settings->>'dispatch_enough')::int AS enough,
                            (SELECT count(*) FROM x WHERE x.dispatch_id = d.id AND x.state IN ('accepted', 'arrived')) AS n
                     FROM d),
             per_call AS (SELECT c.id, count(d.id) AS n FROM c LEFT JOIN d ON d.call_id = c.id GROUP BY c.id),
             per_alert AS (SELECT x.id, (SELECT count(*) FROM sms_outbox o WHERE o.idempotency_key = 'dispatch:' || x.id) AS n FROM x)
        SELECT (SELECT count(*) FROM c) AS calls,
               (SELECT count(*) FROM per_call WHERE n <> 1) AS without,
               (SELECT count(*) FROM outbox WHERE topic = 'dispatch' AND done_at IS NULL
                  AND (payload->>'call_id')::bigint IN (SELECT id FROM c)) AS outbox_left,
               (SELECT count(*) FROM d) AS dispatches,
               (SELECT count(*) FROM x) AS alerts,
               (SELECT coalesce(sum(n), 0) FROM per_alert) AS sms,
               (SELECT count(*) FROM per_alert WHERE n <> 1) AS alerts_without_one_sms,
               (SELECT count(*) FROM sms_outbox o WHERE o.idempotency_key ~ '^dispatch:[0-9]+$'
                  AND NOT EXISTS (SELECT 1 FROM dispatch_alerts y WHERE 'dispatch:' || y.id = o.idempotency_key)) AS stray_sms,
               (SELECT count(*) FROM (SELECT 1 FROM x GROUP BY dispatch_id, responder_id HAVING count(*) > 1) t) AS twice_in_one,
               (SELECT count(*) FROM x WHERE state IN ('accepted', 'arrived')) AS accepted,
               (SELECT count(*) FROM (SELECT 1 FROM x WHERE state IN ('accepted', 'arrived')
                                      GROUP BY responder_id HAVING count(*) > 1) t) AS two_accepted,
               (SELECT count(*) FROM (SELECT 1 FROM x GROUP BY responder_id HAVING count(DISTINCT dispatch_id) > 1) t) AS alerted_by_several,
               (SELECT count(*) FROM d WHERE state = 'enough') AS enough,
               (SELECT count(*) FROM acc WHERE n > enough OR (n >= enough AND state = 'running')) AS past_enough`,
  )
  return r
}
