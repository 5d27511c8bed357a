import { eq, sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { accounts, members } from '../../db/schema.ts'
import { many, one } from '../../db/sql.ts'
import { type MembershipRow, membershipSelect } from '../../plugins/auth/session.repository.ts'

export type { MembershipRow, SessionRow } from '../../plugins/auth/session.repository.ts'
export { loadSession } from '../../plugins/auth/session.repository.ts'

/** Every membership of an account, top-level agencies first. */
export async function membershipsOf(db: DbOrTx, accountId: number): Promise<MembershipRow[]> {
  return many<MembershipRow>(
    db,
    sql`${membershipSelect} WHERE m.account_id = ${accountId} ORDER BY g.level, g.id`,
  )
}

/** An account by one of its unique columns (null: none). */
async function accountBy(db: DbOrTx, column: 'id' | 'phone' | 'wechat_openid', value: string | number) {
  const [row] = await db.select().from(accounts).where(eq(accounts[column], value)).limit(1)
  return row ?? null
}

export const findAccountByPhone = (db: DbOrTx, phone: string) => accountBy(db, 'phone', phone)

export const findAccountById = (db: DbOrTx, id: number) => accountBy(db, 'id', id)

/** Counts a failed sign-in; locks the account when `max` is reached. Answers the lock end, if locked. */
export async function recordFailure(db: DbOrTx, accountId: number, max: number, lockMinutes: number) {
  const row = await one<{ locked_until: Date | null }>(
    db,
    sql`UPDATE accounts SET
      failed_login_count = CASE WHEN failed_login_count + 1 >= ${max} THEN 0 ELSE failed_login_count + 1 END,
      locked_until = CASE WHEN failed_login_count + 1 >= ${max}
                          THEN now() + make_interval(mins => ${lockMinutes}) ELSE locked_until END
    WHERE id = ${accountId}
    RETURNING locked_until`,
  )
  return row?.locked_until ?? null
}

export async function clearFailures(db: DbOrTx, accountId: number, memberId: number | null) {
  await db
    .update(accounts)
    .set({ failed_login_count: 0, locked_until: null, ...(memberId ? { last_member_id: memberId } : {}) })
    .where(eq(accounts.id, accountId))
}

export async function setLastMember(db: DbOrTx, accountId: number, memberId: number) {
  await db.update(accounts).set({ last_member_id: memberId }).where(eq(accounts.id, accountId))
}

/** Stores a new password hash and ends every existing session of the account. */
export async function setPassword(db: DbOrTx, accountId: number, hash: string) {
  const [row] = await db
    .update(accounts)
    .set({
      password_hash: hash,
      password_changed_at: new Date(),
      token_version: sql`${accounts.token_version} + 1`,
      failed_login_count: 0,
      locked_until: null,
      update_time: new Date(),
    })
    .where(eq(accounts.id, accountId))
    .returning({ token_version: accounts.token_version })
  return row.token_version
}

export async function setWechatOpenid(db: DbOrTx, accountId: number, openid: string | null) {
  await db.update(accounts).set({ wechat_openid: openid }).where(eq(accounts.id, accountId))
}

export const findAccountByOpenid = (db: DbOrTx, openid: string) => accountBy(db, 'wechat_openid', openid)

export async function memberById(db: DbOrTx, id: number) {
  const [row] = await db.select().from(members).where(eq(members.id, id)).limit(1)
  return row ?? null
}

/** The first membership of the account with this phone, as an operation-log actor. */
export async function firstActor(db: DbOrTx, phone: string) {
  const [row] = await db
    .select({ member_id: members.id, agency_id: members.agency_id, operator: accounts.name })
    .from(members)
    .innerJoin(accounts, eq(accounts.id, members.account_id))
    .where(eq(accounts.phone, phone))
    .orderBy(members.id)
    .limit(1)
  return row ?? null
}

/** Switches SMS dual verification of an account. */
export async function setSmsDualVerify(db: DbOrTx, accountId: number, on: boolean) {
  await db
    .update(accounts)
    .set({ sms_dual_verify: on, update_time: new Date() })
    .where(eq(accounts.id, accountId))
}
