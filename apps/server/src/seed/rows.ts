import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../db/client.ts'
import { many } from '../db/sql.ts'

// The demo seed's bulk writes: thousands of rows in one statement each.

/**
 * Rows as one jsonb parameter read back as a record set `x` with these column types: a bulk
 * write is then one statement with one parameter (thousands of bound values are slow on PGlite).
 */
export function recordset(rows: object[], columns: Record<string, string>) {
  const defs = Object.entries(columns).map(([name, type]) => `${name} ${type}`)
  return sql`jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(${sql.raw(defs.join(', '))})`
}

/** INSERT ... SELECT from `recordset`: the columns named, in one statement. */
export function insertRows<T>(
  tx: DbOrTx,
  table: string,
  columns: Record<string, string>,
  rows: object[],
  tail = sql``,
) {
  const names = sql.raw(Object.keys(columns).join(', '))
  return many<T>(
    tx,
    sql`INSERT INTO ${sql.identifier(table)} (${names}) SELECT ${names} FROM ${recordset(rows, columns)} ${tail}`,
  )
}
