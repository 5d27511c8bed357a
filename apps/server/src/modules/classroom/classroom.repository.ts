import { and, desc, eq, type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { accounts, agencies, classrooms, members } from '../../db/schema.ts'
import { agencyIdInScope, pathInScope, type Scope } from '../../db/scope.ts'
import { containsPattern, countAll, paginate } from '../../db/sql.ts'
import { orderTerms } from '../../lib/order.ts'

export type ClassroomValues = {
  title: string
  category: number
  describe: string
  link: string
  illustration: string | null
  content_type: number
  content: string
}

const columns = {
  id: classrooms.id,
  agency_id: classrooms.agency_id,
  agency_name: agencies.name,
  title: classrooms.title,
  category: classrooms.category,
  describe: classrooms.describe,
  link: classrooms.link,
  illustration: classrooms.illustration,
  content_type: classrooms.content_type,
  creator_name: accounts.name,
  create_time: classrooms.create_time,
  update_time: classrooms.update_time,
}

/** One page of the scope's items, newest first, filtered by title (contains) and category. */
export async function listPage(
  db: DbOrTx,
  scope: Scope,
  f: { title?: string; category?: number; order_by?: string; page: number; page_size: number },
) {
  const conds: SQL[] = [pathInScope(scope)]
  if (f.title) conds.push(sql`${classrooms.title} ILIKE ${containsPattern(f.title)}`)
  if (f.category !== undefined) conds.push(eq(classrooms.category, f.category))
  const where = and(...conds)
  return paginate(
    f,
    // Joined to the owner agency (scope and name) and to the creator's account (name).
    (limit, offset) =>
      db
        .select(columns)
        .from(classrooms)
        .innerJoin(agencies, eq(agencies.id, classrooms.agency_id))
        .leftJoin(members, eq(members.id, classrooms.creator))
        .leftJoin(accounts, eq(accounts.id, members.account_id))
        .where(where)
        .orderBy(
          ...orderTerms(
            f.order_by,
            { create_time: classrooms.create_time, title: classrooms.title, category: classrooms.category },
            [desc(classrooms.create_time), desc(classrooms.id)],
          ),
        )
        .limit(limit)
        .offset(offset),
    async () => {
      const [row] = await db
        .select({ n: countAll() })
        .from(classrooms)
        .innerJoin(agencies, eq(agencies.id, classrooms.agency_id))
        .where(where)
      return row.n
    },
  )
}

/** An item as lists read it (the detail adds `content`). */
export type ClassroomRow = Omit<NonNullable<Awaited<ReturnType<typeof findInScope>>>, 'content'>

/** One item with its rich text, only when its owner lies in the scope. */
export async function findInScope(db: DbOrTx, scope: Scope, id: number) {
  const [row] = await db
    .select({ ...columns, content: classrooms.content })
    .from(classrooms)
    .innerJoin(agencies, eq(agencies.id, classrooms.agency_id))
    .leftJoin(members, eq(members.id, classrooms.creator))
    .leftJoin(accounts, eq(accounts.id, members.account_id))
    .where(and(eq(classrooms.id, id), pathInScope(scope)))
    .limit(1)
  return row ?? null
}

export async function insert(db: DbOrTx, agencyId: number, creator: number, v: ClassroomValues) {
  const [row] = await db
    .insert(classrooms)
    .values({ ...v, agency_id: agencyId, creator })
    .returning({ id: classrooms.id })
  return row.id
}

/** Updates an item of the scope; false when there is none. */
export async function update(db: DbOrTx, scope: Scope, id: number, v: ClassroomValues) {
  const rows = await db
    .update(classrooms)
    .set({ ...v, update_time: new Date() })
    .where(and(eq(classrooms.id, id), agencyIdInScope(scope, classrooms.agency_id)))
    .returning({ id: classrooms.id })
  return rows.length > 0
}

/** Deletes an item of the scope; answers what was deleted, or null. */
export async function remove(db: DbOrTx, scope: Scope, id: number) {
  const [row] = await db
    .delete(classrooms)
    .where(and(eq(classrooms.id, id), agencyIdInScope(scope, classrooms.agency_id)))
    .returning({ id: classrooms.id, title: classrooms.title })
  return row ?? null
}
