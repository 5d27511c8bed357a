import { eq, type SQL, sql } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { DbOrTx } from './client.ts'

type Field = { name: string; dataTypeID: number }
type Raw = { rows: Record<string, unknown>[]; fields?: Field[] }

// PostgreSQL type ids whose text form the drivers hand over from raw SQL.
const INT8 = 20
const NUMERIC = 1700
const TIMESTAMP = 1114
const TIMESTAMPTZ = 1184

const decoders: Record<number, (v: unknown) => unknown> = {
  // Ids and counts are bigint; every one we keep is far below 2^53.
  [INT8]: Number,
  [NUMERIC]: Number,
  [TIMESTAMP]: (v) => (v instanceof Date ? v : new Date(String(v))),
  [TIMESTAMPTZ]: (v) => (v instanceof Date ? v : new Date(String(v))),
}

/**
 * Runs raw SQL and answers typed rows. Both drivers give bigint and timestamp columns as text
 * (Drizzle asks them to); this decodes them by the column's type, so queries need no `::int`
 * casts and callers no date fix-ups. `date` columns stay 'YYYY-MM-DD' strings.
 */
export async function many<T>(db: DbOrTx, query: SQL): Promise<T[]> {
  const r = (await db.execute(query)) as unknown as Raw
  const fix = (r.fields ?? []).flatMap((f) =>
    decoders[f.dataTypeID] ? [[f.name, decoders[f.dataTypeID]] as const] : [],
  )
  if (fix.length === 0) return r.rows as T[]
  for (const row of r.rows) {
    for (const [name, decode] of fix)
      if (row[name] !== null && row[name] !== undefined) row[name] = decode(row[name])
  }
  return r.rows as T[]
}

/** The first row of raw SQL, typed as `many` types it, or null. */
export async function one<T>(db: DbOrTx, query: SQL): Promise<T | null> {
  return (await many<T>(db, query))[0] ?? null
}

/** `count(*)` for a query-builder select, as a number on both drivers. */
export function countAll() {
  return sql<number>`count(*)`.mapWith(Number)
}

/** The page a list asks for (every list query extends `pageQuery`). */
export type PageRequest = { page: number; page_size: number }

/**
 * The one paging rule: the page's rows (given limit and offset) and the total matching the same
 * filter. A first page shorter than the page size is the whole list, so it skips the count.
 */
export async function paginate<T>(
  p: PageRequest,
  rows: (limit: number, offset: number) => Promise<T[]>,
  total: () => Promise<number>,
): Promise<{ count: number; rows: T[] }> {
  const page = await rows(p.page_size, (p.page - 1) * p.page_size)
  if (p.page === 1 && page.length < p.page_size) return { count: page.length, rows: page }
  return { count: await total(), rows: page }
}

/** A raw-SQL list split so the page and its total share one filter. */
export type PageQuery = PageRequest & {
  /** `SELECT ... FROM ... JOIN ...` of the page's rows. */
  select: SQL
  /** `FROM ... JOIN ...` enough for the filter, for the count. */
  from: SQL
  /** Filter conditions, joined by AND; the tenancy scope is the first. */
  where: SQL[]
  orderBy: SQL[]
}

/** `paginate` for a raw-SQL list. */
export function pageOf<T>(db: DbOrTx, q: PageQuery): Promise<{ count: number; rows: T[] }> {
  const where = q.where.length ? sql.join(q.where, sql` AND `) : sql`TRUE`
  return paginate(
    q,
    (limit, offset) =>
      many<T>(
        db,
        sql`${q.select} WHERE ${where} ORDER BY ${sql.join(q.orderBy, sql`, `)} LIMIT ${limit} OFFSET ${offset}`,
      ),
    async () => (await one<{ n: number }>(db, sql`SELECT count(*) AS n ${q.from} WHERE ${where}`))?.n ?? 0,
  )
}

/** A LIKE pattern matching `text` anywhere, with its own % _ and \ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, '\\$&')}%`
}

/** A table with a numeric id and an update_time (most registries: accounts, members, installations ...). */
type StampedTable = PgTable & { id: PgColumn; update_time: PgColumn }

/** Inserts one row of a table with a numeric id; answers the id. */
export async function insertOne<T extends StampedTable>(db: DbOrTx, table: T, values: T['$inferInsert']) {
  const rows = (await db.insert(table).values(values).returning({ id: table.id })) as { id: number }[]
  return rows[0].id
}

/** Updates one row by id, stamping its update_time. */
export async function updateOne<T extends StampedTable>(
  db: DbOrTx,
  table: T,
  id: number,
  values: Partial<T['$inferInsert']>,
) {
  await db
    .update(table)
    .set({ ...values, update_time: new Date() } as never)
    .where(eq(table.id, id))
}

/** A unique index refused the write (a number or an AED taken meanwhile). */
export const isUniqueViolation = (err: unknown, index?: string) => {
  const e = err as { code?: string; constraint?: string; message?: string; cause?: unknown }
  const hit = (x: typeof e | undefined): boolean =>
    x?.code === '23505' &&
    (!index || x.constraint === index || (x.message ?? '').includes(index) || !x.constraint)
  return hit(e) || hit(e?.cause as typeof e | undefined)
}

/** Node's socket errors and pg's own words for a connection that went away. */
const LOST_CONNECTION =
  /Connection terminated|database link down|ECONNRESET|ECONNREFUSED|EPIPE|ETIMEDOUT|Cannot use a pool after calling end/

/**
 * The database could not be reached or dropped the connection (a restart, a cut link): not a bug
 * of the request, which nothing committed and which may be sent again (503, not 500). SQLSTATE
 * class 08 is connection exceptions; 57P01-57P03 an administrator's shutdown or a server starting.
 */
export function isDatabaseUnreachable(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, k = 0;
    e && k < 5;
    k++
  ) {
    const code = typeof e.code === 'string' ? e.code : ''
    if (code.startsWith('08') || /^57P0[1-3]$/.test(code) || LOST_CONNECTION.test(code)) return true
    if (typeof e.message === 'string' && LOST_CONNECTION.test(e.message)) return true
    e = e.cause as typeof e
  }
  return false
}
