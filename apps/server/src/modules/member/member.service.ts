import { type Permissions, RoleType } from '@aed/contracts'
import type { MemberForm, MemberListQuery } from '@aed/contracts/member'
import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import type { accounts } from '../../db/schema.ts'
import { inScope } from '../../db/scope.ts'
import { invalid, notFound } from '../../lib/errors.ts'
import { hashPassword } from '../../lib/passwords.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { agencyInScope } from '../agency/agency.service.ts'
import { memberListCan, presentMember } from './member.presenter.ts'
import * as repo from './member.repository.ts'
import { checkPermissions, checkPermissionsChosen, checkRank, checkRole, normalise } from './member.rules.ts'

function profile(a: MemberForm['account']) {
  return {
    name: a.name,
    email: a.email,
    nationality: a.nationality,
    location: a.location,
    address_code: a.address_code ?? null,
    lat: a.lat,
    lon: a.lon,
    birth: a.birth ?? null,
    gender: a.gender ?? null,
  }
}

/** True when every organisation the account belongs to lies in the member's subtree. */
async function ownsAccount(ctx: AppContext, auth: AuthContext, accountId: number, db: DbOrTx = ctx.db) {
  const links = await repo.agencyLinksOfAccount(db, accountId)
  return links.every((l) => inScope(auth, l))
}

/** The person's profile a register writes on an account (the responder dialog's fields). */
export type AccountProfile = Pick<
  typeof accounts.$inferInsert,
  'name' | 'email' | 'gender' | 'birth' | 'location' | 'location_desc' | 'address_code' | 'lat' | 'lon'
>

/**
 * The account of a phone, and whether `auth` may change its profile: every organisation the
 * person is a console user of lies in the member's subtree. Null when no account has the phone.
 */
export async function accountOfPhone(ctx: AppContext, db: DbOrTx, auth: AuthContext, phone: string) {
  const a = await repo.findAccountByPhone(db, phone)
  if (!a) return null
  return { ...a, owned: await ownsAccount(ctx, auth, a.id, db) }
}

/** A new account for a person registered by someone else (no password: SMS sign-in or forgot password). */
export function createAccount(db: DbOrTx, auth: AuthContext, phone: string, profile: AccountProfile) {
  return repo.insertAccount(db, { phone, ...profile, creator: auth.member_id, updator: auth.member_id })
}

/** Writes a person's profile (the caller has checked the account is theirs to change). */
export function updateAccountProfile(db: DbOrTx, auth: AuthContext, id: number, profile: AccountProfile) {
  return repo.updateAccount(db, id, { ...profile, updator: auth.member_id })
}

async function detail(ctx: AppContext, auth: AuthContext, id: number) {
  const row = await repo.findInScope(ctx.db, auth, id)
  if (!row) throw notFound()
  return row
}

/** One page of the subtree's users, phones and emails masked. */
export async function listMembers(ctx: AppContext, auth: AuthContext, query: MemberListQuery) {
  const { count, rows } = await repo.listPage(ctx.db, auth, query)
  const resource = rows.map((r) => presentMember(r, auth, { masked: true }))
  return { count, resource, can: memberListCan(auth) }
}

export async function memberDetail(ctx: AppContext, auth: AuthContext, id: number) {
  return presentMember(await detail(ctx, auth, id), auth, { masked: false })
}

/** Adds a person to an organisation of the subtree, reusing the account when the phone is known. */
export async function createMember(ctx: AppContext, auth: AuthContext, form: MemberForm) {
  if (!(await agencyInScope(ctx, auth, form.agency_id))) throw invalid('MEMBER_AGENCY_REQUIRED')
  checkRole(auth, form.role_type, null)
  checkPermissions(auth, form.role_type, form.permissions)
  checkPermissionsChosen(form.role_type, form.permissions)
  const id = await ctx.db.transaction(async (tx) => {
    const existing = await repo.findAccountByPhone(tx, form.account.phone)
    let accountId: number
    if (existing) {
      if (await repo.membershipExists(tx, existing.id, form.agency_id)) throw invalid('MEMBER_EXISTS')
      accountId = existing.id
    } else {
      accountId = await repo.insertAccount(tx, {
        phone: form.account.phone,
        ...profile(form.account),
        password_hash: form.account.password ? await hashPassword(form.account.password) : null,
        // A password set by someone else is due for change at the first sign-in.
        password_changed_at: new Date(0),
        creator: auth.member_id,
        updator: auth.member_id,
      })
    }
    return repo.insertMember(tx, {
      account_id: accountId,
      agency_id: form.agency_id,
      role_type: form.role_type,
      permissions: normalise(form.permissions),
      use_expire: form.use_expire ? new Date(form.use_expire) : null,
      creator: auth.member_id,
      updator: auth.member_id,
    })
  })
  return presentMember((await repo.findInScope(ctx.db, auth, id))!, auth, { masked: false })
}

/** Edits a user: phone locked; the profile changes only when the person belongs to this subtree alone. */
export async function updateMember(ctx: AppContext, auth: AuthContext, id: number, form: MemberForm) {
  const row = await detail(ctx, auth, id)
  if (form.account.phone !== row.phone) throw invalid('PHONE_LOCKED')
  checkRank(auth, row.role_type)
  const self = row.id === auth.member_id
  if (self && (form.role_type !== row.role_type || !samePermissions(form.permissions, row.permissions))) {
    throw invalid('MEMBER_SELF')
  }
  if (!self) {
    checkRole(auth, form.role_type, row.role_type)
    checkPermissions(auth, form.role_type, form.permissions, row.permissions)
  }
  checkPermissionsChosen(form.role_type, form.permissions)
  if (form.agency_id !== row.agency_id) {
    if (!(await agencyInScope(ctx, auth, form.agency_id))) throw invalid('MEMBER_AGENCY_REQUIRED')
    if (await repo.membershipExists(ctx.db, row.account_id, form.agency_id)) throw invalid('MEMBER_EXISTS')
  }
  const owned = await ownsAccount(ctx, auth, row.account_id)
  await ctx.db.transaction(async (tx) => {
    if (owned) {
      await repo.updateAccount(tx, row.account_id, { ...profile(form.account), updator: auth.member_id })
    }
    await repo.updateMember(tx, row.id, {
      agency_id: form.agency_id,
      role_type: form.role_type,
      permissions: normalise(form.permissions),
      use_expire: form.use_expire ? new Date(form.use_expire) : null,
      updator: auth.member_id,
    })
  })
  return presentMember((await repo.findInScope(ctx.db, auth, id))!, auth, { masked: false })
}

/** The authority dialog: permissions and usage period of another user. */
export async function setAuthority(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  body: { permissions: Permissions; use_expire: string | null },
) {
  const row = await detail(ctx, auth, id)
  if (row.id === auth.member_id) throw invalid('MEMBER_SELF')
  checkRank(auth, row.role_type)
  checkPermissions(auth, row.role_type, body.permissions, row.permissions)
  await repo.updateMember(ctx.db, row.id, {
    permissions: normalise(body.permissions),
    use_expire: body.use_expire ? new Date(body.use_expire) : null,
    updator: auth.member_id,
  })
  return presentMember((await repo.findInScope(ctx.db, auth, id))!, auth, { masked: false })
}

export async function deleteMember(ctx: AppContext, auth: AuthContext, id: number) {
  const row = await detail(ctx, auth, id)
  if (row.id === auth.member_id) throw invalid('MEMBER_SELF')
  checkRank(auth, row.role_type)
  await repo.deleteMember(ctx.db, row.id)
  return { id: row.id, name: row.name, agency_name: row.agency_name }
}

/** Looks up a person by phone to prefill the dialog; nothing but existence when they also belong elsewhere. */
export async function lookupAccount(ctx: AppContext, auth: AuthContext, phone: string) {
  if (!/^\d{11}$/.test(phone)) throw invalid('CONTACT_PHONE_WRONG')
  const account = await repo.findAccountByPhone(ctx.db, phone)
  if (!account) return { exists: false, account: null }
  // Someone who also belongs elsewhere: only that the phone is taken, nothing from another subtree.
  if (!(await ownsAccount(ctx, auth, account.id))) return { exists: true, account: null }
  return {
    exists: true,
    account: {
      name: account.name,
      email: account.email,
      nationality: account.nationality,
      location: account.location,
      location_desc: account.location_desc,
      address_code: account.address_code,
      lat: account.lat,
      lon: account.lon,
      birth: account.birth,
      gender: account.gender,
    },
  }
}

function samePermissions(a: Permissions, b: Permissions) {
  const x = normalise(a)
  const y = normalise(b)
  const keys = new Set([...Object.keys(x), ...Object.keys(y)]) as Set<keyof Permissions>
  return [...keys].every((k) => x[k] === y[k])
}

/** A member of the subtree who may manage devices (device managers are never general users). */
export async function managerInScope(ctx: AppContext, auth: AuthContext, memberId: number) {
  const row = await repo.findInScope(ctx.db, auth, memberId)
  return row && row.role_type !== RoleType.GENERAL ? row : null
}
