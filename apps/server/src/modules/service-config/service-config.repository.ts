import { and, desc, eq, type SQL, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { agencies, serviceConfigs } from '../../db/schema.ts'
import { pathInScope, type Scope } from '../../db/scope.ts'
import { countAll, paginate } from '../../db/sql.ts'
import { orderTerms } from '../../lib/order.ts'
import { betweenDates } from '../../lib/time.ts'

const columns = {
  id: serviceConfigs.id,
  agency_id: serviceConfigs.agency_id,
  agency_name: agencies.name,
  level: agencies.level,
  service: serviceConfigs.service,
  state: serviceConfigs.state,
  apply_time: serviceConfigs.apply_time,
  secret: serviceConfigs.secret,
  access_token: serviceConfigs.access_token,
  prev_until: serviceConfigs.prev_until,
  push_url: serviceConfigs.push_url,
  push_secret: serviceConfigs.push_secret,
  push_disabled_reason: serviceConfigs.push_disabled_reason,
  push_disabled_at: serviceConfigs.push_disabled_at,
}
export type ServiceConfigRow = {
  id: number
  agency_id: number
  agency_name: string
  level: number
  service: string[]
  state: number
  apply_time: Date
  secret: string
  access_token: string
  prev_until: Date | null
  push_url: string | null
  push_secret: string | null
  push_disabled_reason: 'gone' | 'failing' | null
  push_disabled_at: Date | null
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
  if (f.agency_id) conds.push(eq(serviceConfigs.agency_id, f.agency_id))
  if (f.service) conds.push(sql`${serviceConfigs.service} @> ${JSON.stringify([f.service])}::jsonb`)
  conds.push(betweenDates(serviceConfigs.apply_time, f.start_time, f.end_time))
  const where = and(...conds)
  return paginate<ServiceConfigRow>(
    f,
    (limit, offset) =>
      db
        .select(columns)
        .from(serviceConfigs)
        .innerJoin(agencies, eq(agencies.id, serviceConfigs.agency_id))
        .where(where)
        .orderBy(
          ...orderTerms(
            f.order_by,
            {
              apply_time: serviceConfigs.apply_time,
              agency_name: agencies.name,
              state: serviceConfigs.state,
            },
            [desc(serviceConfigs.apply_time), desc(serviceConfigs.id)],
          ),
        )
        .limit(limit)
        .offset(offset),
    async () => {
      const [row] = await db
        .select({ n: countAll() })
        .from(serviceConfigs)
        .innerJoin(agencies, eq(agencies.id, serviceConfigs.agency_id))
        .where(where)
      return row.n
    },
  )
}

export async function findInScope(db: DbOrTx, scope: Scope, id: number) {
  const [row] = await db
    .select(columns)
    .from(serviceConfigs)
    .innerJoin(agencies, eq(agencies.id, serviceConfigs.agency_id))
    .where(and(eq(serviceConfigs.id, id), pathInScope(scope)))
    .limit(1)
  return (row as ServiceConfigRow | undefined) ?? null
}

export async function existsForAgency(db: DbOrTx, agencyId: number) {
  const [row] = await db
    .select({ id: serviceConfigs.id })
    .from(serviceConfigs)
    .where(eq(serviceConfigs.agency_id, agencyId))
    .limit(1)
  return Boolean(row)
}

export async function insert(db: DbOrTx, values: typeof serviceConfigs.$inferInsert) {
  const [row] = await db.insert(serviceConfigs).values(values).returning({ id: serviceConfigs.id })
  return row.id
}

export async function update(db: DbOrTx, id: number, values: Partial<typeof serviceConfigs.$inferInsert>) {
  await db
    .update(serviceConfigs)
    .set({ ...values, update_time: new Date() })
    .where(eq(serviceConfigs.id, id))
}
