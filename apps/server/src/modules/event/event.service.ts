import type { Lang } from '@aed/contracts'
import {
  EVENT_EXPORT_DAYS,
  EVENT_EXPORT_FILE_NAMES,
  EVENT_PAGE_TITLES,
  type EventKind,
  type EventListQuery,
  HANDLED_KINDS,
} from '@aed/contracts/event'
import type { AppContext } from '../../context.ts'
import { forbidden, invalid, notFound } from '../../lib/errors.ts'
import { formatDate } from '../../lib/time.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { streamXlsx } from '../../providers/storage/xlsx.ts'
import { agencyInScope } from '../agency/agency.service.ts'
import { eventColumns } from './event.export.ts'
import { eventListCan, mayEditEvents, presentEvent } from './event.presenter.ts'
import * as repo from './event.repository.ts'

/** Rows one export may hold; a larger one must be narrowed by its filters or dates. */
export const EXPORT_LIMIT = 200_000
/** Rows read per export batch. */
const BATCH = 2000

/** The list's filters as the repository takes them: the chosen organisation becomes its path. */
async function filtersOf(
  ctx: AppContext,
  auth: AuthContext,
  kind: EventKind,
  q: EventListQuery,
): Promise<repo.EventFilters> {
  let agencyLink: string | undefined
  if (q.agency_id !== undefined) {
    const agency = await agencyInScope(ctx, auth, q.agency_id)
    if (!agency) throw invalid('EVENT_AGENCY_INVALID')
    agencyLink = agency.index_link
  }
  return {
    kind,
    current: q.current,
    device_sn: q.device_sn || undefined,
    manager_id: q.manager_id,
    agency_link: agencyLink,
    install_location: q.install_location || undefined,
    start_time: q.start_time,
    end_time: q.end_time,
    report_type: kind === 'fault' ? q.report_type : undefined,
  }
}

/**
 * One page of a kind's current (current=true) or past events in the caller's subtree; with
 * export_xls the whole list as an .xlsx (the last 180 days unless dates are given).
 */
export async function listEvents<K extends EventKind>(
  ctx: AppContext,
  auth: AuthContext,
  kind: K,
  q: EventListQuery,
  lang: Lang,
) {
  const filters = await filtersOf(ctx, auth, kind, q)
  if (q.export_xls) return exportEvents(ctx, auth, filters)
  const { count, rows } = await repo.listEvents(ctx.db, auth, filters, q)
  return {
    count,
    resource: rows.map((r) => presentEvent(kind, r, auth, lang)),
    can: eventListCan(kind, auth),
  }
}

async function* capped(batches: AsyncIterable<repo.EventRow[]>) {
  let n = 0
  for await (const batch of batches) {
    n += batch.length
    if (n > EXPORT_LIMIT) throw invalid('EXPORT_TOO_LARGE')
    yield batch
  }
}

/** The spec: read-only members do not export (section 6), as on the device list. */
async function exportEvents(ctx: AppContext, auth: AuthContext, f: repo.EventFilters) {
  if (!mayEditEvents(auth)) throw forbidden('NO_PERMISSION')
  const dated = f.start_time || f.end_time
  const now = ctx.clock.now()
  const range = dated
    ? {}
    : {
        start_time: formatDate(new Date(now.getTime() - EVENT_EXPORT_DAYS * 86_400_000)),
        end_time: formatDate(now),
      }
  const filters = { ...f, ...range }
  const title = EVENT_PAGE_TITLES[f.kind][0]
  return streamXlsx(
    ctx,
    EVENT_EXPORT_FILE_NAMES[f.kind],
    `${title}（${f.current ? '当前' : '历史'}）`,
    eventColumns(f.kind, f.current),
    capped(repo.eventBatches(ctx.db, auth, filters, BATCH)),
  )
}

/**
 * Marks a fault or a location offset of the subtree handled by the caller, with the note; a
 * later handling replaces the earlier one (the operation log keeps every one).
 */
export async function handleEvent(ctx: AppContext, auth: AuthContext, id: number, note: string) {
  const row = await repo.markHandled(ctx.db, auth, id, HANDLED_KINDS, {
    member_id: auth.member_id,
    name: auth.user_name,
    note,
    at: ctx.clock.now(),
  })
  if (row) return { ...row, handle_time: row.handle_time.toISOString() }
  if (await repo.kindInScope(ctx.db, auth, id)) throw invalid('EVENT_NOT_HANDLED_KIND')
  throw notFound()
}
