import type { Permissions } from '@aed/contracts'
import { and, eq, type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { accounts, members } from '../../db/schema.ts'
import { pathInScope, type Scope } from '../../db/scope.ts'
import { containsPattern, insertOne, many, one, pageOf, updateOne } from '../../db/sql.ts'
import { orderTerms } from '../../lib/order.ts'

/** A member with its account, agency and the names of who created and last changed it. */
export type MemberRow = {
  id: number
  account_id: number
  agency_id: number
  agency_name: string
  index_link: string
  role_type: 0 | 1 | 2
  permissions: Permissions
  use_expire: Date | null
  create_time: Date
  update_time: Date
  creator_name: string | null
  updator_name: string | null
  name: string
  phone: string
  email: string | null
  nationality: string | null
  location: string | null
  address_code: string | null
  lat: number | null
  lon: number | null
  birth: string | null
  gender: number | null
}

const from = sql`FROM members m JOIN accounts a ON a.id = m.account_id JOIN agencies g ON g.id = m.agency_id`
const select = sql`
  SELECT m.id, m.account_id, m.agency_id, g.name AS agency_name, g.index_link, m.role_type, m.permissions,
         m.use_expire, m.create_time, m.update_time, ca.name AS creator_name, ua.name AS updator_name,
         a.name, a.phone, a.email, a.nationality, a.location, a.address_code, a.lat, a.lon, a.birth, a.gender
  ${from}
  LEFT JOIN members cm ON cm.id = m.creator LEFT JOIN accounts ca ON ca.id = cm.account_id
  LEFT JOIN members um ON um.id = m.updator LEFT JOIN accounts ua ON ua.id = um.account_id`
const scoped = (scope: Scope) => pathInScope(scope, sql`g.index_link`)

/** The list's sort fields (order_by), by name. */
const MEMBER_ORDER = {
  name: sql`a.name`,
  role_type: sql`m.role_type`,
  create_time: sql`m.create_time`,
  update_time: sql`m.update_time`,
}

/** One page of the members in the scope, filtered in the database. */
export async function listPage(
  db: DbOrTx,
  scope: Scope,
  f: {
    name?: string
    phone?: string
    role?: number
    agency?: number
    exclude_general?: boolean
    order_by?: string
    page: number
    page_size: number
  },
) {
  const where: SQL[] = [scoped(scope)]
  if (f.name) where.push(sql`a.name ILIKE ${containsPattern(f.name)}`)
  if (f.phone) where.push(sql`a.phone LIKE ${containsPattern(f.phone)}`)
  if (f.role !== undefined) where.push(sql`m.role_type = ${f.role}`)
  if (f.agency !== undefined) where.push(sql`m.agency_id = ${f.agency}`)
  if (f.exclude_general) where.push(sql`m.role_type <> 2`)
  const orderBy = orderTerms(f.order_by, MEMBER_ORDER, [sql`m.id DESC`])
  return pageOf<MemberRow>(db, { select, from, where, orderBy, page: f.page, page_size: f.page_size })
}

/** A member, only when its agency lies in the scope. */
export async function findInScope(db: DbOrTx, scope: Scope, id: number) {
  return one<MemberRow>(db, sql`${select} WHERE m.id = ${id} AND ${scoped(scope)}`)
}

export async function findAccountByPhone(db: DbOrTx, phone: string) {
  const [row] = await db.select().from(accounts).where(eq(accounts.phone, phone)).limit(1)
  return row ?? null
}

/** The index_links of every agency an account is a member of. */
export async function agencyLinksOfAccount(db: DbOrTx, accountId: number) {
  const rows = await many<{ index_link: string }>(
    db,
    sql`SELECT g.index_link FROM members m JOIN agencies g ON g.id = m.agency_id WHERE m.account_id = ${accountId}`,
  )
  return rows.map((x) => x.index_link)
}

export async function membershipExists(db: DbOrTx, accountId: number, agencyId: number) {
  const [row] = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.account_id, accountId), eq(members.agency_id, agencyId)))
    .limit(1)
  return Boolean(row)
}

export const insertAccount = (db: DbOrTx, values: typeof accounts.$inferInsert) =>
  insertOne(db, accounts, values)

export const updateAccount = (db: DbOrTx, id: number, values: Partial<typeof accounts.$inferInsert>) =>
  updateOne(db, accounts, id, values)

export const insertMember = (db: DbOrTx, values: typeof members.$inferInsert) =>
  insertOne(db, members, values)

export const updateMember = (db: DbOrTx, id: number, values: Partial<typeof members.$inferInsert>) =>
  updateOne(db, members, id, values)

export async function deleteMember(db: DbOrTx, id: number) {
  await db.delete(members).where(eq(members.id, id))
}
