import { and, asc, eq, ne, type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { agencies } from '../../db/schema.ts'
import { disabledAtOrAbove, pathInScope, type Scope } from '../../db/scope.ts'
import { containsPattern, one, pageOf, updateOne } from '../../db/sql.ts'
import { orderTerms } from '../../lib/order.ts'

export type AgencyRow = typeof agencies.$inferSelect
export type AgencyListRow = AgencyRow & { parent_name: string | null; effective_disabled: boolean }

/** Inserts an agency under `parent` and fills its level and index_link from it. */
export async function insertAgency(
  db: DbOrTx,
  a: {
    name: string
    agency_type: number
    parent_id: number | null
    contact_name: string | null
    phone: string | null
    location: string | null
    address_code: string | null
    creator?: number | null
  },
) {
  const parent = a.parent_id ? await findById(db, a.parent_id) : null
  const [row] = await db
    .insert(agencies)
    .values({
      ...a,
      level: parent ? parent.level + 1 : 1,
      index_link: '',
      disabled: false,
      time_zone: parent?.time_zone ?? 'Asia/Shanghai',
      creator: a.creator ?? null,
    })
    .returning()
  const indexLink = `${parent?.index_link ?? '/'}${row.id}/`
  await db.update(agencies).set({ index_link: indexLink }).where(eq(agencies.id, row.id))
  return { ...row, index_link: indexLink }
}

export async function findById(db: DbOrTx, id: number) {
  const [row] = await db.select().from(agencies).where(eq(agencies.id, id)).limit(1)
  return row ?? null
}

/** An agency, only when it lies in the scope. */
export async function findInScope(db: DbOrTx, scope: Scope, id: number) {
  const [row] = await db
    .select()
    .from(agencies)
    .where(and(eq(agencies.id, id), pathInScope(scope)))
    .limit(1)
  return row ?? null
}

/** Every agency of the scope, parents before children: enough to build the tree in one query. */
export async function listScope(db: DbOrTx, scope: Scope) {
  return db
    .select({
      id: agencies.id,
      name: agencies.name,
      index_link: agencies.index_link,
      agency_type: agencies.agency_type,
      level: agencies.level,
      parent_id: agencies.parent_id,
      disabled: agencies.disabled,
    })
    .from(agencies)
    .where(pathInScope(scope))
    .orderBy(asc(agencies.level), asc(agencies.id))
}

/** The list's sort fields (order_by): the agencies' own columns of those names. */
const AGENCY_ORDER = Object.fromEntries(
  ['name', 'level', 'agency_type', 'create_time'].map((c) => [c, sql.raw(`a.${c}`)]),
)

/** One page of agencies in the scope, with parent names and inherited disabled flags. */
export async function listPage(
  db: DbOrTx,
  scope: Scope,
  f: {
    name?: string
    index_link?: string
    agency_type?: number
    order_by?: string
    page: number
    page_size: number
  },
) {
  const where: SQL[] = [pathInScope(scope, sql`a.index_link`)]
  if (f.index_link) where.push(sql`a.index_link LIKE ${`${f.index_link}%`}`)
  if (f.name) where.push(sql`a.name ILIKE ${containsPattern(f.name)}`)
  if (f.agency_type !== undefined) where.push(sql`a.agency_type = ${f.agency_type}`)
  const orderBy = orderTerms(f.order_by, AGENCY_ORDER, [sql`a.level`, sql`a.id`])
  return pageOf<AgencyListRow>(db, {
    select: sql`SELECT a.*, p.name AS parent_name, ${disabledAtOrAbove(sql`a.index_link`)} AS effective_disabled
                FROM agencies a LEFT JOIN agencies p ON p.id = a.parent_id`,
    from: sql`FROM agencies a`,
    where,
    orderBy,
    page: f.page,
    page_size: f.page_size,
  })
}

/** Parent name and inherited disabled flag of one agency. */
export async function decorate(db: DbOrTx, row: AgencyRow): Promise<AgencyListRow> {
  const extra = await one<{ parent_name: string | null; effective_disabled: boolean }>(
    db,
    sql`SELECT (SELECT name FROM agencies WHERE id = ${row.parent_id}) AS parent_name,
               ${disabledAtOrAbove(row.index_link)} AS effective_disabled`,
  )
  return { ...row, ...extra! }
}

export async function siblingNamed(db: DbOrTx, parentId: number | null, name: string, exceptId?: number) {
  const [row] = await db
    .select({ id: agencies.id })
    .from(agencies)
    .where(
      and(
        parentId === null ? sql`${agencies.parent_id} IS NULL` : eq(agencies.parent_id, parentId),
        eq(agencies.name, name),
        exceptId ? ne(agencies.id, exceptId) : undefined,
      ),
    )
    .limit(1)
  return Boolean(row)
}

export async function hasChildren(db: DbOrTx, id: number) {
  const [row] = await db.select({ id: agencies.id }).from(agencies).where(eq(agencies.parent_id, id)).limit(1)
  return Boolean(row)
}

export const update = (db: DbOrTx, id: number, values: Partial<typeof agencies.$inferInsert>) =>
  updateOne(db, agencies, id, values)

/** Moves a subtree under a new parent: every path below is rewritten and every level shifted. */
export async function moveSubtree(db: DbOrTx, row: AgencyRow, parent: AgencyRow) {
  const newLink = `${parent.index_link}${row.id}/`
  const shift = parent.level + 1 - row.level
  await db.execute(sql`
    UPDATE agencies SET index_link = ${newLink} || substr(index_link, ${row.index_link.length + 1}),
                        level = level + ${shift}, update_time = now()
    WHERE index_link LIKE ${`${row.index_link}%`}`)
  await db.update(agencies).set({ parent_id: parent.id }).where(eq(agencies.id, row.id))
}
