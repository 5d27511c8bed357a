import { and, desc, eq, type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { agencies, appServiceConfigs } from '../../db/schema.ts'
import { pathInScope, type Scope } from '../../db/scope.ts'
import { countAll, paginate } from '../../db/sql.ts'
import { orderTerms } from '../../lib/order.ts'
import { betweenDates } from '../../lib/time.ts'

const columns = {
  id: appServiceConfigs.id,
  agency_id: appServiceConfigs.agency_id,
  agency_name: agencies.name,
  level: agencies.level,
  service: appServiceConfigs.service,
  state: appServiceConfigs.state,
  apply_time: appServiceConfigs.apply_time,
  secret: appServiceConfigs.secret,
  access_token: appServiceConfigs.access_token,
}
export type AppServiceRow = {
  id: number
  agency_id: number
  agency_name: string
  level: number
  service: string[]
  state: number
  apply_time: Date
  secret: string
  access_token: string
}

/** One page of service configurations of agencies in the scope, newest first. */
export async function listPage(
  db: DbOrTx,
  scope: Scope,
  f: {
    agency_id?: number
    service?: string
    start_time?: string
    end_time?: string
    order_by?: string
    page: number
    page_size: number
  },
) {
  const conds: (SQL | undefined)[] = [pathInScope(scope)]
  if (f.agency_id) conds.push(eq(appServiceConfigs.agency_id, f.agency_id))
  if (f.service) conds.push(sql`${appServiceConfigs.service} @> ${JSON.stringify([f.service])}::jsonb`)
  conds.push(betweenDates(appServiceConfigs.apply_time, f.start_time, f.end_time))
  const where = and(...conds)
  return paginate<AppServiceRow>(
    f,
    (limit, offset) =>
      db
        .select(columns)
        .from(appServiceConfigs)
        .innerJoin(agencies, eq(agencies.id, appServiceConfigs.agency_id))
        .where(where)
        .orderBy(
          ...orderTerms(
            f.order_by,
            {
              apply_time: appServiceConfigs.apply_time,
              agency_name: agencies.name,
              state: appServiceConfigs.state,
            },
            [desc(appServiceConfigs.apply_time), desc(appServiceConfigs.id)],
          ),
        )
        .limit(limit)
        .offset(offset),
    async () => {
      const [row] = await db
        .select({ n: countAll() })
        .from(appServiceConfigs)
        .innerJoin(agencies, eq(agencies.id, appServiceConfigs.agency_id))
        .where(where)
      return row.n
    },
  )
}

export async function findInScope(db: DbOrTx, scope: Scope, id: number) {
  const [row] = await db
    .select(columns)
    .from(appServiceConfigs)
    .innerJoin(agencies, eq(agencies.id, appServiceConfigs.agency_id))
    .where(and(eq(appServiceConfigs.id, id), pathInScope(scope)))
    .limit(1)
  return (row as AppServiceRow | undefined) ?? null
}

export async function existsForAgency(db: DbOrTx, agencyId: number) {
  const [row] = await db
    .select({ id: appServiceConfigs.id })
    .from(appServiceConfigs)
    .where(eq(appServiceConfigs.agency_id, agencyId))
    .limit(1)
  return Boolean(row)
}

export async function insert(db: DbOrTx, values: typeof appServiceConfigs.$inferInsert) {
  const [row] = await db.insert(appServiceConfigs).values(values).returning({ id: appServiceConfigs.id })
  return row.id
}

export async function update(db: DbOrTx, id: number, values: Partial<typeof appServiceConfigs.$inferInsert>) {
  await db
    .update(appServiceConfigs)
    .set({ ...values, update_time: new Date() })
    .where(eq(appServiceConfigs.id, id))
}
