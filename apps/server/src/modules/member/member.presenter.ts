import { can, maskEmail, maskPhone } from '@aed/contracts'
import type { Member } from '@aed/contracts/member'
import type { AuthContext } from '../../plugins/auth.ts'
import type { MemberRow } from './member.repository.ts'

/** One user as anyone allowed to see it sees it: the part a push to many members can share. */
export function memberObject(row: MemberRow, opts: { masked: boolean }): Omit<Member, 'can'> {
  return {
    id: row.id,
    account: {
      id: row.account_id,
      name: row.name,
      phone: opts.masked ? maskPhone(row.phone)! : row.phone,
      email: opts.masked ? maskEmail(row.email) : row.email,
      nationality: row.nationality,
      location: row.location,
      address_code: row.address_code,
      lat: row.lat,
      lon: row.lon,
      birth: row.birth,
      gender: row.gender,
    },
    agency_id: row.agency_id,
    agency_name: row.agency_name,
    role_type: row.role_type,
    permissions: row.permissions,
    use_expire: row.use_expire?.toISOString() ?? null,
    creator: row.creator_name,
    create_time: row.create_time.toISOString(),
    updator: row.updator_name,
    update_time: row.update_time.toISOString(),
  }
}

/** What the signed-in member may do with this user; the console reads it instead of re-deriving. */
export function memberCan(row: Pick<MemberRow, 'id' | 'role_type'>, auth: AuthContext): Member['can'] {
  const reachable = row.role_type >= auth.role_type
  return {
    edit: can(auth, 'member', 'EDIT') && reachable,
    delete: can(auth, 'member', 'ALL') && reachable && row.id !== auth.member_id,
  }
}

/** What the signed-in member may do from the user page's toolbar: add users, as the create route's guard (member EDIT). */
export function memberListCan(auth: AuthContext) {
  return { create: can(auth, 'member', 'EDIT') }
}

/** One user as the console shows it to `auth`; lists mask phone and email. */
export function presentMember(row: MemberRow, auth: AuthContext, opts: { masked: boolean }): Member {
  return { ...memberObject(row, opts), can: memberCan(row, auth) }
}
