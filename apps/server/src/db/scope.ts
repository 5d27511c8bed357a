import { type SQL, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import type { DbOrTx } from './client.ts'
import { agencies } from './schema.ts'
import { one } from './sql.ts'

/** The agencies a member may see: its own and every one below it, by materialised path. */
export type Scope = { index_link: string }

/**
 * The one tenancy condition: an agency path (a column, or `sql` naming an aliased one) lies in
 * the scope. Every repository filters with this or `agencyIdInScope`.
 */
export function pathInScope(scope: Scope, indexLink: SQL | AnyPgColumn = agencies.index_link): SQL {
  // index_link holds only digits and '/', so it needs no LIKE escaping.
  return sql`${indexLink} LIKE ${`${scope.index_link}%`}`
}

/** The tenancy condition for a row that keeps only its `agency_id`. */
export function agencyIdInScope(scope: Scope, agencyId: SQL | AnyPgColumn): SQL {
  return sql`${agencyId} IN (SELECT id FROM agencies WHERE ${pathInScope(scope, sql`index_link`)})`
}

/** True when `indexLink` lies in the scope. */
export function inScope(scope: Scope, indexLink: string) {
  return indexLink.startsWith(scope.index_link)
}

/**
 * SQL: the agency at `indexLink`, or one above it, is disabled. Disabling an organisation takes
 * every function from its subtree, so this is what "disabled" means everywhere.
 */
export function disabledAtOrAbove(indexLink: SQL | AnyPgColumn | string): SQL {
  return sql`EXISTS (SELECT 1 FROM agencies d WHERE d.disabled AND ${indexLink} LIKE d.index_link || '%')`
}

/**
 * The scope's condition on an organisation id column, or null when the scope holds every
 * organisation there is (one look at the agencies, a few thousand rows): a count or a map over
 * the whole network then needs no test per row.
 */
export async function agencyScopeTest(db: DbOrTx, scope: Scope, agencyId: SQL): Promise<SQL | null> {
  const row = await one<{ all: boolean }>(
    db,
    sql`SELECT NOT EXISTS (SELECT 1 FROM agencies WHERE NOT (${pathInScope(scope, sql`index_link`)})) AS all`,
  )
  return row?.all ? null : agencyIdInScope(scope, agencyId)
}
