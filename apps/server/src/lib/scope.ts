import { type SQL, sql } from 'drizzle-orm'
import type { AnyPgColumn } from 'drizzle-orm/pg-core'
import { agencies } from '../db/schema.ts'

/** The agencies a member may see: its own and every one below it, by materialised path. */
export type Scope = { index_link: string }

/** SQL condition: the agency's path lies in the scope. */
export function agencyInScope(scope: Scope, indexLink: AnyPgColumn = agencies.index_link): SQL {
  // index_link holds only digits and '/', so it needs no LIKE escaping.
  return sql`${indexLink} LIKE ${`${scope.index_link}%`}`
}

/** SQL condition for a row's agency_id column: that agency lies in the scope. */
export function agencyIdInScope(scope: Scope, agencyId: AnyPgColumn): SQL {
  return sql`${agencyId} IN (SELECT id FROM agencies WHERE index_link LIKE ${`${scope.index_link}%`})`
}

/** True when `indexLink` lies in the scope. */
export function inScope(scope: Scope, indexLink: string) {
  return indexLink.startsWith(scope.index_link)
}
