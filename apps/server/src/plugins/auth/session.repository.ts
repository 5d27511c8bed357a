import type { AgencyTypeValue, Permissions, RoleTypeValue } from '@aed/contracts'
import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { disabledAtOrAbove } from '../../db/scope.ts'
import { one } from '../../db/sql.ts'

// The session a member's token stands for, as the member guard reads it on every request; the
// auth module's sign-in reads memberships through the same select.

/** A membership with what sign-in and the session check need to know about it. */
export type MembershipRow = {
  member_id: number
  account_id: number
  agency_id: number
  agency_name: string
  agency_type: AgencyTypeValue
  index_link: string
  role_type: RoleTypeValue
  permissions: Permissions
  use_expire: Date | null
  /** The agency or one above it is disabled. */
  agency_disabled: boolean
}

export const membershipSelect = sql`
  SELECT m.id AS member_id, m.account_id, m.agency_id, g.name AS agency_name, g.agency_type, g.index_link,
         m.role_type, m.permissions, m.use_expire, ${disabledAtOrAbove(sql`g.index_link`)} AS agency_disabled
  FROM members m JOIN agencies g ON g.id = m.agency_id`

/** One membership with its account's session fields, or null. */
export async function loadSession(db: DbOrTx, memberId: number) {
  return one<SessionRow>(
    db,
    sql`SELECT s.*, a.phone, a.name AS user_name, a.token_version, a.avatar,
               (a.wechat_openid IS NOT NULL) AS bind_wx, a.password_changed_at
        FROM (${membershipSelect} WHERE m.id = ${memberId}) s JOIN accounts a ON a.id = s.account_id`,
  )
}

export type SessionRow = MembershipRow & {
  phone: string
  user_name: string
  token_version: number
  avatar: string | null
  bind_wx: boolean
  password_changed_at: Date
}
