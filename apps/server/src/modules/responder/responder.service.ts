import type { Lang } from '@aed/contracts'
import { regionPrefix } from '@aed/contracts/regions'
import {
  AidAptitude,
  RESPONDER_LAYER_MAX,
  type ResponderAvailabilityForm,
  type ResponderForm,
  type ResponderListQuery,
  type ResponderRenewForm,
} from '@aed/contracts/responder'
import { ageOn, dispatchState } from '@aed/contracts/responder-rules'
import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { isUniqueViolation } from '../../db/sql.ts'
import { invalid, notFound } from '../../lib/errors.ts'
import { RawJson } from '../../lib/raw-json.ts'
import { formatDate } from '../../lib/time.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { agencyInScope } from '../agency/agency.service.ts'
import {
  type AccountProfile,
  accountOfPhone,
  createAccount,
  updateAccountProfile,
} from '../member/member.service.ts'
import { presentChange, presentResponder, responderListCan } from './responder.presenter.ts'
import * as repo from './responder.repository.ts'
import { exportResponders } from './responder-export.ts'

/** The organisations' date now, on the server's clock (tests move it): what age and certificates are read on. */
export const todayOf = (ctx: AppContext) => formatDate(ctx.clock.now())

async function detailRow(ctx: AppContext, auth: AuthContext, id: number) {
  const row = await repo.findInScope(ctx.db, auth, id)
  if (!row) throw notFound()
  return row
}

const present = async (ctx: AppContext, auth: AuthContext, id: number) =>
  presentResponder((await repo.findInScope(ctx.db, auth, id))!, auth, todayOf(ctx), { masked: false })

/** One page of the subtree's responders (phones and emails masked), or the export 急救人员列表.xlsx. */
export async function listResponders(ctx: AppContext, auth: AuthContext, q: ResponderListQuery, lang: Lang) {
  const today = todayOf(ctx)
  if (q.export_xls) return exportResponders(ctx, auth, q, today, lang)
  const { count, rows } = await repo.listPage(ctx.db, auth, q, today)
  return {
    count,
    resource: rows.map((r) => presentResponder(r, auth, today, { masked: true })),
    can: responderListCan(auth),
  }
}

export async function responderDetail(ctx: AppContext, auth: AuthContext, id: number) {
  return presentResponder(await detailRow(ctx, auth, id), auth, todayOf(ctx), { masked: false })
}

function profileOf(a: ResponderForm['account']): AccountProfile {
  return {
    name: a.name,
    email: a.email ?? null,
    gender: a.gender,
    birth: a.birth,
    location: a.location,
    location_desc: a.location_desc ?? null,
    address_code: a.address_code ?? null,
    lat: a.lat,
    lon: a.lon,
  }
}

/** The register's fields of the form; a non-professional holds no certificate. */
function registerOf(f: ResponderForm) {
  const pro = f.aid_aptitude === AidAptitude.PROFESSIONAL
  return {
    agency_id: f.agency_id,
    aid_aptitude: f.aid_aptitude,
    certificate_num: pro ? (f.certificate_num ?? null) : null,
    certificate_expire: pro ? (f.certificate_expire ?? null) : null,
    certificate_img: pro ? (f.certificate_img ?? null) : null,
    status: f.status,
  }
}

/** Birth dates a person can have: not after today, at most 120 years ago. */
function checkBirth(birth: string, today: string) {
  const age = ageOn(birth, today)
  if (birth > today || age === null || age > 120) throw invalid('BIRTH_INVALID')
}

async function checkCertificate(tx: DbOrTx, auth: AuthContext, num: string | null, exceptId: number | null) {
  if (num && (await repo.takenCertificates(tx, auth, [num], exceptId)).size > 0)
    throw invalid('CERT_NUM_TAKEN')
}

/** A concurrent registration of the same person got there first: the unique index says so. */
function onDuplicate(err: unknown): never {
  if (isUniqueViolation(err, 'responders_account_idx')) throw invalid('RESPONDER_EXISTS')
  throw err
}

/** Registers a person as a responder of an organisation of the subtree, reusing the phone's account. */
export async function createResponder(ctx: AppContext, auth: AuthContext, form: ResponderForm) {
  const agency = await agencyInScope(ctx, auth, form.agency_id)
  if (!agency) throw invalid('MEMBER_AGENCY_REQUIRED')
  checkBirth(form.account.birth, todayOf(ctx))
  const id = await ctx.db
    .transaction(async (tx) => {
      const existing = await accountOfPhone(ctx, tx, auth, form.account.phone)
      let accountId: number
      if (existing) {
        if (await repo.findByAccount(tx, existing.id)) throw invalid('RESPONDER_EXISTS')
        // A console user of an organisation outside the subtree: their profile is not ours to write.
        if (!existing.owned) throw invalid('RESPONDER_ACCOUNT_ELSEWHERE')
        accountId = existing.id
        await updateAccountProfile(tx, auth, accountId, profileOf(form.account))
      } else {
        accountId = await createAccount(tx, auth, form.account.phone, profileOf(form.account))
      }
      const register = registerOf(form)
      await checkCertificate(tx, auth, register.certificate_num, null)
      const id = await repo.insertResponder(tx, {
        account_id: accountId,
        ...register,
        creator: auth.member_id,
        updator: auth.member_id,
      })
      await repo.insertChanges(
        tx,
        [{ responder_id: id, kind: 'created', detail: { aid_aptitude: form.aid_aptitude }, ...by(auth) }],
        ctx.clock.now(),
      )
      return id
    })
    .catch(onDuplicate)
  return present(ctx, auth, id)
}

const by = (auth: AuthContext) => ({ operator_id: auth.member_id, operator: auth.user_name })

/**
 * An approved public volunteer (issue 27) becomes a lay responder of the system organisation,
 * in the review's transaction: dispatch alerts them near any call while 后台配置 says so. A phone
 * that is a responder already keeps its entry (one per person), linked, not created; an account
 * without a place takes the guarded area's.
 */
export async function registerVolunteer(
  ctx: AppContext,
  tx: DbOrTx,
  auth: AuthContext,
  v: {
    phone: string
    name: string
    guard_area: string
    lat: number | null
    lon: number | null
    cert_img: string | null
    agency_id: number
  },
) {
  const account = await accountOfPhone(ctx, tx, auth, v.phone)
  if (account) {
    const found = await repo.findByAccount(tx, account.id)
    if (found) return { responder_id: found.id, responder_created: false }
    await repo.fillAccountPlace(tx, account.id, { location: v.guard_area, lat: v.lat, lon: v.lon })
  }
  const accountId =
    account?.id ??
    (await createAccount(tx, auth, v.phone, {
      name: v.name,
      email: null,
      gender: null,
      birth: null,
      location: v.guard_area,
      location_desc: null,
      address_code: null,
      lat: v.lat,
      lon: v.lon,
    }))
  const id = await repo.insertResponder(tx, {
    account_id: accountId,
    agency_id: v.agency_id,
    aid_aptitude: AidAptitude.LAY,
    certificate_img: v.cert_img,
    status: 0,
    volunteer: true,
    creator: auth.member_id,
    updator: auth.member_id,
  })
  await repo.insertChanges(
    tx,
    [
      {
        responder_id: id,
        kind: 'created',
        detail: { aid_aptitude: AidAptitude.LAY, volunteer: true },
        ...by(auth),
      },
    ],
    ctx.clock.now(),
  )
  return { responder_id: id, responder_created: true }
}

/** The responder entry a deleted volunteer's approval made: out of dispatch at once. */
export function deleteVolunteerResponder(tx: DbOrTx, id: number) {
  return repo.deleteResponder(tx, id)
}

/** The fields an edit changes, for the history line. */
function changedFields(row: repo.ResponderRow, form: ResponderForm) {
  const p = profileOf(form.account)
  const r = registerOf(form)
  const before: Record<string, unknown> = { ...row, point: `${row.lat},${row.lon}` }
  const after: Record<string, unknown> = { ...p, ...r, point: `${p.lat},${p.lon}` }
  const keys = ['name', 'gender', 'birth', 'email', 'location', 'location_desc', 'point', 'aid_aptitude']
  keys.push('certificate_num', 'certificate_expire', 'certificate_img', 'agency_id', 'status')
  return keys.filter((k) => (before[k] ?? null) !== (after[k] ?? null))
}

const PROFILE_FIELDS = new Set(['name', 'gender', 'birth', 'email', 'location', 'location_desc', 'point'])

/** Edits a responder: the phone stays; the profile changes only when the person belongs to this subtree alone. */
export async function updateResponder(ctx: AppContext, auth: AuthContext, id: number, form: ResponderForm) {
  const row = await detailRow(ctx, auth, id)
  if (form.account.phone !== row.phone) throw invalid('RESPONDER_PHONE_LOCKED')
  checkBirth(form.account.birth, todayOf(ctx))
  if (form.agency_id !== row.agency_id && !(await agencyInScope(ctx, auth, form.agency_id)))
    throw invalid('MEMBER_AGENCY_REQUIRED')
  const fields = changedFields(row, form)
  await ctx.db.transaction(async (tx) => {
    const account = await accountOfPhone(ctx, tx, auth, row.phone)
    if (fields.some((f) => PROFILE_FIELDS.has(f))) {
      if (!account?.owned) throw invalid('RESPONDER_ACCOUNT_ELSEWHERE')
      await updateAccountProfile(tx, auth, row.account_id, profileOf(form.account))
    }
    const register = registerOf(form)
    await checkCertificate(tx, auth, register.certificate_num, row.id)
    await repo.updateResponder(tx, row.id, { ...register, updator: auth.member_id })
    if (fields.length > 0) {
      await repo.insertChanges(
        tx,
        [{ responder_id: row.id, kind: 'updated', detail: { fields }, ...by(auth) }],
        ctx.clock.now(),
      )
    }
  })
  return present(ctx, auth, id)
}

/** Deletes the register entry; the person's account (and any console membership) stays. */
export async function deleteResponder(ctx: AppContext, auth: AuthContext, id: number) {
  const row = await detailRow(ctx, auth, id)
  await repo.deleteResponder(ctx.db, row.id)
  return { id: row.id, name: row.name, agency_name: row.agency_name }
}

/** A professional's new certificate: the expiry must lie after today; alerts resume at once. */
export async function renewCertificate(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  form: ResponderRenewForm,
) {
  const row = await detailRow(ctx, auth, id)
  if (row.aid_aptitude !== AidAptitude.PROFESSIONAL) throw invalid('CERT_RENEW_LAY')
  if (form.certificate_expire <= todayOf(ctx)) throw invalid('CERT_RENEW_DATE')
  const num = form.certificate_num ?? row.certificate_num
  await ctx.db.transaction(async (tx) => {
    await checkCertificate(tx, auth, num, row.id)
    await repo.updateResponder(tx, row.id, {
      certificate_num: num,
      certificate_expire: form.certificate_expire,
      certificate_img: form.certificate_img,
      updator: auth.member_id,
    })
    const detail = { certificate_expire: form.certificate_expire, previous: row.certificate_expire }
    await repo.insertChanges(
      tx,
      [{ responder_id: row.id, kind: 'renewed', detail, ...by(auth) }],
      ctx.clock.now(),
    )
  })
  return present(ctx, auth, id)
}

/** Pauses (with why) or resumes a responder's alerts; the same state again writes nothing. */
export async function setAvailability(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  form: ResponderAvailabilityForm,
) {
  const row = await detailRow(ctx, auth, id)
  const reason = form.paused ? (form.reason ?? null) : null
  if (row.paused === form.paused && row.pause_reason === reason) return present(ctx, auth, id)
  const now = ctx.clock.now()
  await ctx.db.transaction(async (tx) => {
    await repo.updateResponder(tx, row.id, {
      paused: form.paused,
      pause_reason: reason,
      paused_at: form.paused ? now : null,
      updator: auth.member_id,
    })
    const kind = form.paused ? 'paused' : 'resumed'
    await repo.insertChanges(tx, [{ responder_id: row.id, kind, detail: { reason }, ...by(auth) }], now)
  })
  return present(ctx, auth, id)
}

/** A responder's history, newest first, in the reader's language. */
export async function listChanges(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  q: { page: number; page_size: number },
  lang: Lang,
) {
  const row = await detailRow(ctx, auth, id)
  const { count, rows } = await repo.changesPage(ctx.db, row.id, q.page, q.page_size)
  return { count, resource: rows.map((c) => presentChange(c, lang)) }
}

/**
 * The dashboard's responder layer: the scope's responders with a place in the region, as plain
 * arrays in JSON text (see RawJson). Past RESPONDER_LAYER_MAX the points are cut to it here.
 */
export async function responderLocations(
  ctx: AppContext,
  auth: AuthContext,
  addressCode: string | undefined,
): Promise<RawJson> {
  const { total, points } = await repo.locationsJson(
    ctx.db,
    auth,
    addressCode ? regionPrefix(addressCode) : null,
    todayOf(ctx),
    RESPONDER_LAYER_MAX,
  )
  const more = total > RESPONDER_LAYER_MAX
  const resource = more
    ? JSON.stringify(JSON.parse(`[${points}]`).slice(0, RESPONDER_LAYER_MAX))
    : `[${points}]`
  return new RawJson(
    `{"count":${Math.min(total, RESPONDER_LAYER_MAX)},"more":${more},"resource":${resource}}`,
  )
}

/** Responders of the scope near a point (a call), nearest first, with whether an alert may reach them. */
export async function respondersNear(
  ctx: AppContext,
  auth: AuthContext,
  at: { lat: number; lon: number },
  radius: number,
  limit: number,
) {
  const today = todayOf(ctx)
  const rows = await repo.near(ctx.db, auth, at, radius, limit)
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    lon: r.lon,
    lat: r.lat,
    distance: r.distance,
    aid_aptitude: r.aid_aptitude,
    dispatch_state: dispatchState(r, today),
  }))
}
