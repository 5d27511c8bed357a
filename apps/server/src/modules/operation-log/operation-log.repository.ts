import { and, desc, eq, ilike, type SQL } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { agencies, operationLogs } from '../../db/schema.ts'
import { pathInScope, type Scope } from '../../db/scope.ts'
import { containsPattern, countAll } from '../../db/sql.ts'
import { orderTerms } from '../../lib/order.ts'
import { betweenDates } from '../../lib/time.ts'

export type LogFilter = {
  operator?: string
  content?: string
  start_time: string
  end_time: string
  order_by?: string
}
export type LogRow = {
  id: number
  operator: string
  operation_type: string
  content: string
  agency_name: string | null
  create_time: Date
}

function where(scope: Scope, f: LogFilter) {
  const conds: (SQL | undefined)[] = [
    pathInScope(scope),
    betweenDates(operationLogs.create_time, f.start_time, f.end_time),
  ]
  if (f.operator) conds.push(ilike(operationLogs.operator, containsPattern(f.operator)))
  if (f.content) conds.push(ilike(operationLogs.content, containsPattern(f.content)))
  return and(...conds)
}

const columns = {
  id: operationLogs.id,
  operator: operationLogs.operator,
  operation_type: operationLogs.operation_type,
  content: operationLogs.content,
  agency_name: agencies.name,
  create_time: operationLogs.create_time,
}

/** Log entries of the agencies in the scope, newest first: one page, or up to `limit` for an export. */
export async function listLogs(
  db: DbOrTx,
  scope: Scope,
  f: LogFilter,
  limit: number,
  offset = 0,
): Promise<LogRow[]> {
  return db
    .select(columns)
    .from(operationLogs)
    .innerJoin(agencies, eq(agencies.id, operationLogs.agency_id))
    .where(where(scope, f))
    .orderBy(
      ...orderTerms(
        f.order_by,
        {
          create_time: operationLogs.create_time,
          operator: operationLogs.operator,
          operation_type: operationLogs.operation_type,
        },
        [desc(operationLogs.create_time), desc(operationLogs.id)],
      ),
    )
    .limit(limit)
    .offset(offset)
}

export async function countLogs(db: DbOrTx, scope: Scope, f: LogFilter) {
  const [row] = await db
    .select({ n: countAll() })
    .from(operationLogs)
    .innerJoin(agencies, eq(agencies.id, operationLogs.agency_id))
    .where(where(scope, f))
  return row.n
}
