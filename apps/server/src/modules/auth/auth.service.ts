import {
  agencyMemberRole,
  Code,
  type Lang,
  type LoginRequest,
  PASSWORD_MAX_AGE_DAYS,
  permissionList,
  type UserInfo,
} from '@aed/contracts'
import { dictLabel } from '@aed/contracts/constants'
import type { AppContext } from '../../context.ts'
import { AppError, invalid, unauthenticated } from '../../lib/errors.ts'
import { checkPassword, hashPassword } from '../../lib/passwords.ts'
import { endLiveSessions } from '../live/live.service.ts'
import * as repo from './auth.repository.ts'
import { consumeSmsCode } from './sms.service.ts'

const isActive = (m: repo.MembershipRow) =>
  !m.agency_disabled && (!m.use_expire || m.use_expire.getTime() > Date.now())

/** The reason an account with no active membership cannot sign in. */
function noActiveMembership(all: repo.MembershipRow[]): AppError {
  if (all.length === 0) return invalid('NO_MEMBERSHIP')
  if (all.every((m) => m.agency_disabled)) return invalid('AGENCY_DISABLED')
  return invalid('MEMBERSHIP_EXPIRED')
}

/** Issues a token for a membership and answers the session the console stores. */
export async function sessionFor(
  ctx: AppContext,
  memberId: number,
  lang: Lang,
  memberships?: repo.MembershipRow[],
): Promise<UserInfo> {
  const s = await repo.loadSession(ctx.db, memberId)
  if (!s) throw unauthenticated()
  const all = memberships ?? (await repo.membershipsOf(ctx.db, s.account_id))
  const ageDays = (Date.now() - s.password_changed_at.getTime()) / 86_400_000
  return {
    id: s.member_id,
    account_id: s.account_id,
    phone: s.phone,
    agency_id: s.agency_id,
    agency_name: s.agency_name,
    agency_type: s.agency_type,
    role_type: s.role_type,
    token: ctx.tokens.issue(s.member_id, s.account_id, s.token_version),
    bind_wx: s.bind_wx,
    user_name: s.user_name,
    role: dictLabel('role_type', s.role_type, lang),
    avatar: s.avatar,
    agency_member_role: agencyMemberRole(s),
    permissions: s.permissions,
    permission_list: permissionList(s),
    password_expired: ageDays > PASSWORD_MAX_AGE_DAYS,
    agency_list: all.filter(isActive).map((m) => ({
      id: m.member_id,
      agency_id: m.agency_id,
      agency_name: m.agency_name,
      agency_type: m.agency_type,
      role_type: m.role_type,
      current: m.member_id === s.member_id,
    })),
  }
}

/** Picks the membership a sign-in lands in: the last one used if still active, else the top-most. */
async function landingMembership(ctx: AppContext, accountId: number, lastMemberId: number | null) {
  const all = await repo.membershipsOf(ctx.db, accountId)
  const active = all.filter(isActive)
  if (active.length === 0) throw noActiveMembership(all)
  return { memberId: (active.find((m) => m.member_id === lastMemberId) ?? active[0]).member_id, all }
}

async function failSignIn(ctx: AppContext, accountId: number, key: 'LOGIN_FAILED' | 'SMS_CODE_WRONG') {
  const lockedUntil = await repo.recordFailure(
    ctx.db,
    accountId,
    ctx.config.LOGIN_MAX_FAILURES,
    ctx.config.LOGIN_LOCK_MINUTES,
  )
  if (lockedUntil && lockedUntil.getTime() > Date.now()) throw lockedError(lockedUntil)
  return invalid(key)
}

function lockedError(until: Date) {
  return new AppError(Code.LOCKED, 'ACCOUNT_LOCKED', {
    minutes: Math.max(1, Math.ceil((until.getTime() - Date.now()) / 60_000)),
  })
}

/**
 * Signs in by mobile and password (login_way 1; accounts with SMS dual verification also need
 * a code) or by mobile and SMS code (login_way 2). Repeated failures lock the account.
 */
export async function login(ctx: AppContext, req: LoginRequest, lang: Lang): Promise<UserInfo> {
  if (req.login_way === 1 && !req.password) throw invalid('PASSWORD_REQUIRED')
  if (req.login_way === 2 && !req.sms_code) throw invalid('SMS_CODE_REQUIRED')
  const account = await repo.findAccountByPhone(ctx.db, req.mobile)
  if (!account) {
    if (req.login_way === 1) await checkPassword(null, req.password ?? '')
    else await consumeSmsCode(ctx, req.mobile, 'login', req.sms_code ?? '')
    throw invalid(req.login_way === 1 ? 'LOGIN_FAILED' : 'SMS_CODE_WRONG')
  }
  if (account.locked_until && account.locked_until.getTime() > Date.now())
    throw lockedError(account.locked_until)

  if (req.login_way === 1) {
    if (!(await checkPassword(account.password_hash, req.password ?? ''))) {
      throw await failSignIn(ctx, account.id, 'LOGIN_FAILED')
    }
    if (account.sms_dual_verify) {
      if (!req.sms_code) throw new AppError(Code.NEED_SMS_CODE, 'SMS_CODE_REQUIRED')
      if (!(await consumeSmsCode(ctx, req.mobile, 'login', req.sms_code))) {
        throw await failSignIn(ctx, account.id, 'SMS_CODE_WRONG')
      }
    }
  } else if (!(await consumeSmsCode(ctx, req.mobile, 'login', req.sms_code ?? ''))) {
    throw await failSignIn(ctx, account.id, 'SMS_CODE_WRONG')
  }

  const { memberId, all } = await landingMembership(ctx, account.id, account.last_member_id)
  await repo.clearFailures(ctx.db, account.id, memberId)
  return sessionFor(ctx, memberId, lang, all)
}

/** Signs in an account found some other way (WeChat): the same landing rules as a password sign-in. */
export async function loginAccount(
  ctx: AppContext,
  accountId: number,
  lastMemberId: number | null,
  lang: Lang,
) {
  const { memberId, all } = await landingMembership(ctx, accountId, lastMemberId)
  await repo.setLastMember(ctx.db, accountId, memberId)
  return sessionFor(ctx, memberId, lang, all)
}

/** The active memberships of the signed-in account. */
export async function currentList(ctx: AppContext, accountId: number, currentMemberId: number) {
  const all = await repo.membershipsOf(ctx.db, accountId)
  const resource = all.filter(isActive).map((m) => ({
    id: m.member_id,
    agency_id: m.agency_id,
    agency_name: m.agency_name,
    agency_type: m.agency_type,
    role_type: m.role_type,
    current: m.member_id === currentMemberId,
  }))
  return { count: resource.length, resource }
}

/** Switches to another membership of the same account and issues its token. */
export async function switchMembership(ctx: AppContext, accountId: number, memberId: number, lang: Lang) {
  const all = await repo.membershipsOf(ctx.db, accountId)
  const target = all.find((m) => m.member_id === memberId)
  if (!target) throw invalid('MEMBERSHIP_NOT_FOUND')
  if (target.agency_disabled) throw invalid('AGENCY_DISABLED')
  if (!isActive(target)) throw invalid('MEMBERSHIP_EXPIRED')
  await repo.setLastMember(ctx.db, accountId, memberId)
  return sessionFor(ctx, memberId, lang, all)
}

/** Changes the signed-in account's password; every other session ends, this one gets a new token. */
export async function resetPassword(
  ctx: AppContext,
  auth: { account_id: number; member_id: number; token: string },
  body: { password: string; old_password?: string },
) {
  const account = await repo.findAccountById(ctx.db, auth.account_id)
  if (!account) throw unauthenticated()
  if (account.password_hash) {
    if (!body.old_password) throw invalid('OLD_PASSWORD_REQUIRED')
    if (!(await checkPassword(account.password_hash, body.old_password))) throw invalid('OLD_PASSWORD_WRONG')
    if (body.old_password === body.password) throw invalid('PASSWORD_SAME')
  }
  const version = await repo.setPassword(ctx.db, account.id, await hashPassword(body.password))
  await endLiveSessions(ctx, { reason: 'password_changed', account_id: account.id, keepToken: auth.token })
  return { token: ctx.tokens.issue(auth.member_id, account.id, version) }
}

/** Sets a new password after proving the phone with an SMS code; ends every session of the account. */
export async function forgetPassword(
  ctx: AppContext,
  body: { phone: string; sms_code: string; password: string },
) {
  if (!(await consumeSmsCode(ctx, body.phone, 'forget', body.sms_code))) throw invalid('SMS_CODE_WRONG')
  const account = await repo.findAccountByPhone(ctx.db, body.phone)
  if (!account) throw invalid('ACCOUNT_NOT_FOUND')
  await repo.setPassword(ctx.db, account.id, await hashPassword(body.password))
  await endLiveSessions(ctx, { reason: 'password_changed', account_id: account.id })
}

/** The first membership of the account with this phone, as the operation log's actor. */
export function actorOfPhone(ctx: AppContext, phone: string) {
  return repo.firstActor(ctx.db, phone)
}
