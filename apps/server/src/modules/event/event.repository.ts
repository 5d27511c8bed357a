import type { EventKind } from '@aed/contracts/event'
import { type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { pathInScope, type Scope } from '../../db/scope.ts'
import { containsPattern, many, one, type PageRequest, pageOf } from '../../db/sql.ts'
import { betweenDates } from '../../lib/time.ts'
import type { EventRecord } from '../device/device-detail.port.ts'

/** An event with its device, installation, manager and organisation, as every page reads it. */
export type EventRow = EventRecord & {
  kind: EventKind
  device_id: number
  device_sn: string
  model: string
  location: string | null
  location_desc: string | null
  manager_name: string | null
  agency_name: string
  seen_by: string | null
  seen_time: Date | null
}

/** The page's filters as the repository applies them (dates already defaulted for an export). */
export type EventFilters = {
  kind: EventKind
  current: boolean
  device_sn?: string
  manager_id?: number
  /** The chosen organisation's path: its subtree. */
  agency_link?: string
  install_location?: string
  start_time?: string
  end_time?: string
  report_type?: number
}

// One join per row for the device, the installation with its manager, and the organisation; the offset's
// message (unique per msg_type and event) says who confirmed it in the message centre.
const columns = sql`e.id, e.kind, e.device_id, d.device_sn, d.model, i.location, i.location_desc,
  ma.name AS manager_name, g.name AS agency_name, e.code, e.content, e.event_time, e.closed_at,
  e.report_type, e.handler_name, e.handle_note, e.handle_time, e.install_location, e.offset_location,
  e.offset_lat, e.offset_lon, e.offset_distance, m.confirmed_name AS seen_by, m.confirm_time AS seen_time`
const from = sql`FROM device_events e
  JOIN devices d ON d.id = e.device_id
  JOIN agencies g ON g.id = e.agency_id
  LEFT JOIN installations i ON i.id = e.installation_id
  LEFT JOIN members mm ON mm.id = i.device_manager_id
  LEFT JOIN accounts ma ON ma.id = mm.account_id
  LEFT JOIN messages m ON e.kind = 'offset' AND m.msg_type = 3 AND m.event_id = e.id`

/**
 * The conditions of a page. Scope, kind and open/closed first: with the path prefix they are the
 * partial indexes device_events_current_idx / history_idx (kind, index_link, event_time DESC).
 */
function filtersOf(scope: Scope, f: EventFilters) {
  const where: SQL[] = [
    pathInScope(scope, sql`e.index_link`),
    sql`e.kind = ${f.kind}`,
    f.current ? sql`e.closed_at IS NULL` : sql`e.closed_at IS NOT NULL`,
  ]
  // Which joins the count needs besides the event itself.
  const needs = { device: false, installation: false }
  if (f.agency_link) where.push(sql`e.index_link LIKE ${`${f.agency_link}%`}`)
  const range = betweenDates(sql`e.event_time`, f.start_time, f.end_time)
  if (range) where.push(range)
  if (f.report_type !== undefined) where.push(sql`e.report_type = ${f.report_type}`)
  if (f.device_sn) {
    where.push(sql`d.device_sn ILIKE ${containsPattern(f.device_sn)}`)
    needs.device = true
  }
  if (f.manager_id !== undefined) {
    where.push(sql`i.device_manager_id = ${f.manager_id}`)
    needs.installation = true
  }
  if (f.install_location) {
    const p = containsPattern(f.install_location)
    where.push(sql`(i.location ILIKE ${p} OR i.location_desc ILIKE ${p} OR e.install_location ILIKE ${p})`)
    needs.installation = true
  }
  const countFrom = sql.join(
    [
      sql`FROM device_events e`,
      ...(needs.device ? [sql`JOIN devices d ON d.id = e.device_id`] : []),
      ...(needs.installation ? [sql`LEFT JOIN installations i ON i.id = e.installation_id`] : []),
    ],
    sql` `,
  )
  return { where, countFrom }
}

const newestFirst = [sql`e.event_time DESC`, sql`e.id DESC`]

/** One page of a kind's current or past events in the scope, newest first. */
export function listEvents(db: DbOrTx, scope: Scope, f: EventFilters, page: PageRequest) {
  const { where, countFrom } = filtersOf(scope, f)
  return pageOf<EventRow>(db, {
    select: sql`SELECT ${columns} ${from}`,
    from: countFrom,
    where,
    orderBy: newestFirst,
    ...page,
  })
}

/**
 * Every matching event in batches of `size`, newest first, for an export: each batch starts after
 * the last row of the one before (event_time, id), so no OFFSET is paid however large it is.
 */
export async function* eventBatches(
  db: DbOrTx,
  scope: Scope,
  f: EventFilters,
  size: number,
): AsyncGenerator<EventRow[]> {
  const { where } = filtersOf(scope, f)
  let last: { at: string; id: number } | null = null
  for (;;) {
    const seek = last ? [sql`(e.event_time, e.id) < (CAST(${last.at} AS timestamptz), ${last.id})`] : []
    const rows: (EventRow & { seek_at: string })[] = await many<EventRow & { seek_at: string }>(
      db,
      sql`SELECT ${columns}, e.event_time::text AS seek_at ${from}
          WHERE ${sql.join([...where, ...seek], sql` AND `)}
          ORDER BY ${sql.join(newestFirst, sql`, `)} LIMIT ${size}`,
    )
    if (rows.length === 0) return
    const tail = rows[rows.length - 1]
    last = { at: tail.seek_at, id: tail.id }
    yield rows
    if (rows.length < size) return
  }
}

/**
 * Marks an event of the scope handled, when it is of a kind that is handled. Answers the row
 * after the change; null when the scope holds no such event or it is of another kind.
 */
export function markHandled(
  db: DbOrTx,
  scope: Scope,
  id: number,
  kinds: readonly EventKind[],
  by: { member_id: number; name: string; note: string; at: Date },
) {
  return one<{
    id: number
    kind: EventKind
    device_sn: string
    handler_name: string
    handle_note: string
    handle_time: Date
  }>(
    db,
    sql`UPDATE device_events e
        SET handler = ${by.member_id}, handler_name = ${by.name}, handle_note = ${by.note},
            handle_time = ${by.at}
        FROM devices d
        WHERE e.id = ${id} AND d.id = e.device_id AND ${pathInScope(scope, sql`e.index_link`)}
          AND e.kind IN (${sql.join(
            kinds.map((k) => sql`${k}`),
            sql`, `,
          )})
        RETURNING e.id, e.kind, d.device_sn, e.handler_name, e.handle_note, e.handle_time`,
  )
}

/** The kind of an event of the scope, or null. */
export async function kindInScope(db: DbOrTx, scope: Scope, id: number) {
  const row = await one<{ kind: EventKind }>(
    db,
    sql`SELECT e.kind FROM device_events e WHERE e.id = ${id} AND ${pathInScope(scope, sql`e.index_link`)}`,
  )
  return row?.kind ?? null
}
