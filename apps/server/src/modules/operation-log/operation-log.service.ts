import { DEFAULT_EXPORT_DAYS, type OperationLogQuery } from '@aed/contracts/operation-log'
import type { AppContext } from '../../context.ts'
import { paginate } from '../../db/sql.ts'
import { invalid } from '../../lib/errors.ts'
import { formatDate } from '../../lib/time.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { exportXlsx } from '../../providers/storage/xlsx.ts'
import { logColumns, presentLog } from './operation-log.presenter.ts'
import * as repo from './operation-log.repository.ts'

/** Rows one export may hold; a larger range must be narrowed. */
export const EXPORT_LIMIT = 100_000

/** The filter of a query, with the default range: the last 180 days up to today. */
function filterOf(q: OperationLogQuery, now = new Date()): repo.LogFilter {
  const filter = {
    operator: q.operator,
    content: q.content,
    order_by: q.order_by,
    start_time: q.start_time ?? formatDate(new Date(now.getTime() - DEFAULT_EXPORT_DAYS * 86_400_000)),
    end_time: q.end_time ?? formatDate(now),
  }
  if (filter.start_time > filter.end_time) throw invalid('DATE_ORDER')
  return filter
}

/** A page of the subtree's log, or with `export_xls` a spreadsheet of every matching entry. */
export async function listOrExport(ctx: AppContext, auth: AuthContext, q: OperationLogQuery) {
  const filter = filterOf(q)
  if (!q.export_xls) {
    const { count, rows } = await paginate(
      q,
      (limit, offset) => repo.listLogs(ctx.db, auth, filter, limit, offset),
      () => repo.countLogs(ctx.db, auth, filter),
    )
    return { count, resource: rows.map(presentLog) }
  }
  const rows = await repo.listLogs(ctx.db, auth, filter, EXPORT_LIMIT + 1)
  if (rows.length > EXPORT_LIMIT) throw invalid('EXPORT_TOO_LARGE')
  const name = `系统操作日志_${filter.start_time}_${filter.end_time}.xlsx`
  const file_url = await exportXlsx(ctx, name, '系统操作日志', logColumns, rows)
  return { file_url, count: rows.length }
}
