import { type SQL, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { invalid } from './errors.ts'

/**
 * ORDER BY terms for a list's `order_by` ('field' or '-field'), limited to the fields the list
 * allows; the default order follows as tie-breaker so paging stays stable.
 */
export function orderTerms(
  orderBy: string | undefined,
  allowed: Record<string, SQL | AnyPgColumn>,
  fallback: SQL[],
): SQL[] {
  if (!orderBy) return fallback
  const descending = orderBy.startsWith('-')
  const name = orderBy.replace(/^-/, '')
  // Own keys only: 'constructor' or '__proto__' must not reach the SQL.
  const column = Object.hasOwn(allowed, name) ? allowed[name] : undefined
  if (!column) throw invalid('ORDER_INVALID')
  return [descending ? sql`${column} DESC` : sql`${column} ASC`, ...fallback]
}
