import { can, type Lang, translate } from '@aed/contracts'
import type { UploadedPart } from '@aed/contracts/files'
import type { NearbyThirdParty } from '@aed/contracts/open-api'
import { regionPrefix } from '@aed/contracts/regions'
import {
  type AuditForm,
  AuditStatus,
  type Duplicate,
  REVIEW_IMAGE_SUFFIX,
  type SysConfig,
  THIRD_PARTY_LAYER_MAX,
  type ThirdPartyAedSubmission,
  type ThirdPartyListQuery,
  type ThirdPartyUpdateForm,
  type VolunteerListQuery,
  type VolunteerSubmission,
} from '@aed/contracts/review'
import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { forbidden, invalid, notFound } from '../../lib/errors.ts'
import type { IntegratorContext } from '../../plugins/auth/integrator.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { queueNoticeSms } from '../alert/alert-sms.service.ts'
import { regionOfPoint } from '../call/call-region.ts'
import { insertOutbox, kickIfTold, type OutboxRow, tellOutbox } from '../engine/engine.port.ts'
import { fromGcj02, toGcj02 } from '../engine/gcj02.ts'
import { checkStoredImages, upload } from '../files/files.service.ts'
import { tellReviewSubmission } from '../message/message.service.ts'
import { deleteVolunteerResponder, registerVolunteer } from '../responder/responder.service.ts'
import { openReviewObject, presentThirdParty, presentVolunteer, reviewListCan } from './review.presenter.ts'
import * as repo from './review.repository.ts'
import { exportThirdParty, exportVolunteers } from './review-export.ts'

/** Who a submission came from: the integrator's configuration and organisation. */
type Source = Pick<IntegratorContext, 'config_id' | 'agency_id'>

/** POST /open-api/v1/file/: one image of a submission, a jpg, jpeg or png whose bytes say so. */
export function uploadImage(ctx: AppContext, file: UploadedPart) {
  return upload(ctx, file, REVIEW_IMAGE_SUFFIX)
}

/** The reviewers' message of a new submission (the system organisation's message centre). */
async function tellReviewers(
  ctx: AppContext,
  tx: DbOrTx,
  n: { kind: 'volunteer' | 'third_party'; id: number; name: string; place: string },
) {
  const system = await repo.systemAgency(tx)
  if (!system) return
  await tellReviewSubmission(ctx, tx, {
    ...n,
    agency_id: system.id,
    index_link: system.index_link,
    time: ctx.clock.now(),
  })
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null)

/**
 * A citizen volunteers (open API): one application in review per phone. The same application
 * sent again answers the first (created false); a different one while the first is in review is
 * refused. A phone that is a responder already is flagged for the reviewer, never refused.
 */
export async function submitVolunteer(ctx: AppContext, source: Source, form: VolunteerSubmission) {
  let point =
    form.lat !== undefined && form.lon !== undefined
      ? form.coord === 'wgs84'
        ? toGcj02(form.lat, form.lon)
        : { lat: form.lat, lon: form.lon }
      : null
  const seen = await repo.volunteerInReview(ctx.db, form.submitter_phone)
  if (seen) return twinOf(seen, source, form, ['submitter_name', 'guard_area', 'has_cert', 'cert_img'])
  if (form.cert_img) await checkStoredImages(ctx, [form.cert_img])
  // Without a point, the guarded area's words on the map: dispatch needs somewhere to alert from.
  if (!point) {
    const [place] = await ctx.map.suggestion(form.guard_area, { limit: 1 }).catch(() => [])
    point = place?.location ?? null
  }
  const responder = await repo.responderOfPhone(ctx.db, form.submitter_phone)
  const duplicates: Duplicate[] = responder
    ? [
        {
          kind: 'responder',
          id: responder.id,
          sn: null,
          label: `${responder.name}（${responder.agency_name}）`,
          distance: null,
          similarity: null,
          reason: 'phone',
          lat: responder.lat,
          lon: responder.lon,
          location_desc: responder.location_desc,
          photos: responder.certificate_img ? [responder.certificate_img] : [],
        },
      ]
    : []
  const now = ctx.clock.now()
  const id = await ctx.db.transaction(async (tx) => {
    const id = await repo.insertVolunteer(tx, {
      submitter_name: form.submitter_name,
      submitter_phone: form.submitter_phone,
      guard_area: form.guard_area,
      has_cert: form.has_cert,
      cert_img: form.has_cert ? (form.cert_img ?? null) : null,
      lat: point?.lat ?? null,
      lon: point?.lon ?? null,
      config_id: source.config_id,
      agency_id: source.agency_id,
      duplicates,
      create_time: now,
      update_time: now,
    })
    if (id !== null)
      await tellReviewers(ctx, tx, {
        kind: 'volunteer',
        id,
        name: form.submitter_name,
        place: form.guard_area,
      })
    return id
  })
  if (id !== null) return { id, created: true, audit_status: AuditStatus.IN_REVIEW }
  // The twin of a concurrent request won the phone's place in review.
  const first = await repo.volunteerInReview(ctx.db, form.submitter_phone)
  if (!first) throw invalid('REVIEW_PENDING')
  return twinOf(first, source, form, ['submitter_name', 'guard_area', 'has_cert', 'cert_img'])
}

/**
 * The phone's submission in review: the same one again from the same integrator (created false),
 * or a refusal. Another integrator never learns the first one's id.
 */
function twinOf<R extends { id: number; config_id: number | null }, F extends object>(
  row: R,
  source: Source,
  form: F,
  keys: (keyof R & keyof F)[],
) {
  if (row.config_id === source.config_id && keys.every((k) => same(row[k], form[k])))
    return { id: row.id, created: false, audit_status: AuditStatus.IN_REVIEW }
  throw invalid('REVIEW_PENDING')
}

/**
 * A citizen reports someone else's AED (open API): checked like a volunteer's application, and
 * compared with our AEDs and the approved third-party ones near it (serial, or place within 50 m
 * with a similar text): a match is flagged with what it matched, for the reviewer to decide.
 */
export async function submitThirdParty(ctx: AppContext, source: Source, form: ThirdPartyAedSubmission) {
  const point = form.coord === 'wgs84' ? toGcj02(form.lat, form.lon) : { lat: form.lat, lon: form.lon }
  const values = {
    ...form,
    ...point,
    location_desc: form.location_desc ?? null,
    device_sn: form.device_sn ?? null,
  }
  const keys = [
    'brand',
    'location',
    'location_desc',
    'lat',
    'lon',
    'install_imgs',
    'submitter_name',
    'device_sn',
  ] as const
  const seen = await repo.thirdPartyInReview(ctx.db, form.submitter_phone)
  if (seen) return twinOf(seen, source, values, [...keys])
  await checkStoredImages(ctx, form.install_imgs)
  const addressCode = form.address_code ?? (await regionOfPoint(ctx, point.lat, point.lon))
  const duplicates = await duplicatesOf(ctx.db, values)
  const now = ctx.clock.now()
  const id = await ctx.db.transaction(async (tx) => {
    const id = await repo.insertThirdParty(tx, {
      brand: form.brand,
      location: form.location,
      location_desc: values.location_desc,
      address_code: addressCode,
      lat: point.lat,
      lon: point.lon,
      install_imgs: form.install_imgs,
      device_sn: values.device_sn,
      submitter_name: form.submitter_name,
      submitter_phone: form.submitter_phone,
      config_id: source.config_id,
      agency_id: source.agency_id,
      duplicates,
      create_time: now,
      update_time: now,
    })
    if (id !== null)
      await tellReviewers(ctx, tx, { kind: 'third_party', id, name: form.brand, place: form.location })
    return id
  })
  if (id !== null) return { id, created: true, audit_status: AuditStatus.IN_REVIEW }
  const first = await repo.thirdPartyInReview(ctx.db, form.submitter_phone)
  if (!first) throw invalid('REVIEW_PENDING')
  return twinOf(first, source, values, [...keys])
}

/** The duplicate check of an AED's place and serial (also the benchmark's subject). */
export function duplicatesOf(
  db: DbOrTx,
  a: { lat: number; lon: number; location: string; location_desc: string | null; device_sn: string | null },
  exceptId: number | null = null,
) {
  return repo.aedDuplicates(
    db,
    { lat: a.lat, lon: a.lon, text: `${a.location} ${a.location_desc ?? ''}`.trim(), sn: a.device_sn },
    exceptId,
  )
}

/** Only the system organisation reviews; the route guard says so first, this is the service's own check. */
function systemOnly(auth: AuthContext) {
  if (auth.agency_type !== 0) throw forbidden()
}

/** A tab of volunteers (phones masked), or the export 公共志愿者.xlsx. */
export async function listVolunteers(ctx: AppContext, auth: AuthContext, q: VolunteerListQuery, lang: Lang) {
  systemOnly(auth)
  if (q.export_xls) return exportVolunteers(ctx, auth, q, lang)
  const { count, rows } = await repo.volunteerPage(ctx.db, q)
  return {
    count,
    resource: rows.map((r) => presentVolunteer(r, auth, { masked: true })),
    can: reviewListCan(auth),
  }
}

export async function listThirdParty(ctx: AppContext, auth: AuthContext, q: ThirdPartyListQuery, lang: Lang) {
  systemOnly(auth)
  if (q.export_xls) return exportThirdParty(ctx, auth, q, lang)
  const { count, rows } = await repo.thirdPartyPage(ctx.db, q)
  return {
    count,
    resource: rows.map((r) => presentThirdParty(r, auth, { masked: true })),
    can: reviewListCan(auth),
  }
}

/**
 * The outcome of a decision, in its transaction: the SMS to the submitter, and the webhook to the
 * integrator that sent the submission.
 */
async function tellOutcome(
  ctx: AppContext,
  tx: DbOrTx,
  kind: 'volunteer' | 'third_party',
  r: Pick<
    repo.VolunteerRow,
    'id' | 'submitter_phone' | 'submitter_name' | 'config_id' | 'agency_id' | 'index_link'
  >,
  place: string,
  form: { audit_status: number; rejected_reason?: string | null },
) {
  const now = ctx.clock.now()
  const approved = form.audit_status === AuditStatus.APPROVED
  const key = {
    volunteer: approved ? 'SMS_VOLUNTEER_APPROVED' : 'SMS_VOLUNTEER_REJECTED',
    third_party: approved ? 'SMS_AED_APPROVED' : 'SMS_AED_REJECTED',
  } as const
  const content = translate(key[kind], 'zh-CN', {
    name: r.submitter_name,
    place,
    reason: form.rejected_reason ?? '',
  })
  await queueNoticeSms(
    tx,
    { phone: r.submitter_phone, content, key: `review:${kind}:${r.id}`, kind: 'review' },
    now,
  )
  if (r.config_id === null || r.agency_id === null || r.index_link === null) return
  const row: OutboxRow = {
    topic: 'webhook',
    key: `webhook:review:${kind}:${r.id}`,
    agencyId: r.agency_id,
    indexLink: r.index_link,
    payload: {
      event: kind === 'volunteer' ? 'review.volunteer.decided' : 'review.aed.decided',
      review_id: r.id,
      config_id: r.config_id,
    },
  }
  await insertOutbox(tx, [row], now)
  await tellOutbox(ctx, tx, [row])
}

const decided = (
  auth: AuthContext,
  form: { audit_status: number; rejected_reason?: string | null },
  now: Date,
) => ({
  audit_status: form.audit_status,
  rejected_reason: form.audit_status === AuditStatus.REJECTED ? (form.rejected_reason ?? null) : null,
  audit_time: now,
  auditor_id: auth.member_id,
  auditor: auth.user_name,
})

/**
 * Pass or reject a volunteer in review. Passing makes them a public responder of the system
 * organisation (dispatch alerts them while 后台配置 says so); a phone that is a responder already
 * keeps that entry, linked. The submitter hears the outcome by SMS and the integrator by webhook.
 */
export async function auditVolunteer(ctx: AppContext, auth: AuthContext, id: number, form: AuditForm) {
  systemOnly(auth)
  const now = ctx.clock.now()
  await ctx.db.transaction(async (tx) => {
    const v = await repo.volunteerById(tx, id, true)
    if (!v) throw notFound('REVIEW_NOT_FOUND')
    if (v.audit_status !== AuditStatus.IN_REVIEW) throw invalid('REVIEW_NOT_IN_REVIEW')
    let responder: { responder_id: number | null; responder_created: boolean } = {
      responder_id: null,
      responder_created: false,
    }
    if (form.audit_status === AuditStatus.APPROVED) {
      const system = await repo.systemAgency(tx)
      if (!system) throw notFound()
      responder = await registerVolunteer(ctx, tx, auth, {
        phone: v.submitter_phone,
        name: v.submitter_name,
        guard_area: v.guard_area,
        lat: v.lat,
        lon: v.lon,
        cert_img: v.cert_img,
        agency_id: system.id,
      })
    }
    await repo.updateVolunteer(tx, id, { ...decided(auth, form, now), ...responder })
    await tellOutcome(ctx, tx, 'volunteer', v, v.guard_area, form)
  })
  kickIfTold(ctx)
  return presentVolunteer((await repo.volunteerById(ctx.db, id))!, auth, { masked: false })
}

/** Delete an approved volunteer: the responder entry approval made goes too, so dispatch stops at once. */
export async function deleteVolunteer(ctx: AppContext, auth: AuthContext, id: number) {
  systemOnly(auth)
  return ctx.db.transaction(async (tx) => {
    const v = await repo.volunteerById(tx, id, true)
    if (!v) throw notFound('REVIEW_NOT_FOUND')
    if (v.audit_status !== AuditStatus.APPROVED) throw invalid('REVIEW_NOT_APPROVED')
    if (v.responder_created && v.responder_id !== null) await deleteVolunteerResponder(tx, v.responder_id)
    await repo.deleteVolunteer(tx, id)
    return { id, name: v.submitter_name }
  })
}

/** Audit (update_type 1) a third-party AED in review, or edit (2) an approved one. */
export async function updateThirdParty(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  form: ThirdPartyUpdateForm,
) {
  systemOnly(auth)
  const now = ctx.clock.now()
  if (form.update_type === 1) {
    await ctx.db.transaction(async (tx) => {
      const p = await repo.thirdPartyById(tx, id, true)
      if (!p) throw notFound('REVIEW_NOT_FOUND')
      if (p.audit_status !== AuditStatus.IN_REVIEW) throw invalid('REVIEW_NOT_IN_REVIEW')
      await repo.updateThirdParty(tx, id, decided(auth, form, now))
      await tellOutcome(ctx, tx, 'third_party', p, p.location, form)
    })
    kickIfTold(ctx)
  } else {
    const p = await repo.thirdPartyById(ctx.db, id)
    if (!p) throw notFound('REVIEW_NOT_FOUND')
    if (p.audit_status !== AuditStatus.APPROVED) throw invalid('REVIEW_NOT_APPROVED')
    await checkStoredImages(
      ctx,
      form.install_imgs.filter((u) => !p.install_imgs.includes(u)),
    )
    const addressCode = form.address_code ?? (await regionOfPoint(ctx, form.lat, form.lon))
    const duplicates = await duplicatesOf(
      ctx.db,
      { ...form, location_desc: form.location_desc ?? null, device_sn: p.device_sn },
      id,
    )
    await repo.updateThirdParty(ctx.db, id, {
      brand: form.brand,
      location: form.location,
      location_desc: form.location_desc ?? null,
      address_code: addressCode,
      lat: form.lat,
      lon: form.lon,
      install_imgs: form.install_imgs,
      duplicates,
    })
  }
  return presentThirdParty((await repo.thirdPartyById(ctx.db, id))!, auth, { masked: false })
}

/** Delete an approved third-party AED: out of the nearby answer and the map at once. */
export async function deleteThirdParty(ctx: AppContext, auth: AuthContext, id: number) {
  systemOnly(auth)
  const p = await repo.thirdPartyById(ctx.db, id)
  if (!p) throw notFound('REVIEW_NOT_FOUND')
  if (p.audit_status !== AuditStatus.APPROVED) throw invalid('REVIEW_NOT_APPROVED')
  await repo.deleteThirdParty(ctx.db, id)
  return { id, name: `${p.brand} ${p.location}` }
}

/** 后台配置 as the page shows it. */
export async function sysConfig(ctx: AppContext, auth: AuthContext) {
  systemOnly(auth)
  const c = await repo.sysConfig(ctx.db)
  return {
    call_event_notify_aid_volunteer: c.call_event_notify_aid_volunteer as 0 | 1,
    xcx_display_third_party_aed: c.xcx_display_third_party_aed as 0 | 1,
    update_time: c.update_time ? c.update_time.toISOString() : null,
    updator: c.updator,
    can: { edit: can(auth, 'agency', 'EDIT') },
  }
}

export async function saveSysConfig(ctx: AppContext, auth: AuthContext, form: SysConfig) {
  systemOnly(auth)
  await repo.saveSysConfig(ctx.db, { ...form, updator: auth.user_name }, ctx.clock.now())
  return sysConfig(ctx, auth)
}

/**
 * Approved third-party AEDs near a point for the open API's nearby answer, when 后台配置 shows
 * them; none otherwise. Readiness unknown: nobody watches them.
 */
export async function nearbyThirdParty(
  db: DbOrTx,
  at: { lat: number; lon: number },
  radius: number,
  limit: number,
  coord: 'gcj02' | 'wgs84',
): Promise<NearbyThirdParty[]> {
  const config = await repo.sysConfig(db)
  if (config.xcx_display_third_party_aed !== 1) return []
  const rows = await repo.thirdPartyNear(db, at, radius, limit)
  return rows.map((r) => {
    const p = coord === 'wgs84' ? fromGcj02(r.lat, r.lon) : { lat: r.lat, lon: r.lon }
    return {
      third_party: true as const,
      id: r.id,
      sn: r.device_sn,
      brand: r.brand,
      readiness: 'unknown' as const,
      readiness_reasons: ['third_party'] as ['third_party'],
      lat: p.lat,
      lon: p.lon,
      coord,
      address: r.location,
      location_desc: r.location_desc,
      address_code: r.address_code,
      photos: r.install_imgs,
      distance: r.distance,
    }
  })
}

/** The dashboard's layer of approved third-party AEDs in a region: public records, no submitter. */
export async function thirdPartyLayer(ctx: AppContext, addressCode: string | undefined) {
  const rows = await repo.thirdPartyPoints(
    ctx.db,
    addressCode ? regionPrefix(addressCode) : null,
    THIRD_PARTY_LAYER_MAX + 1,
  )
  const more = rows.length > THIRD_PARTY_LAYER_MAX
  const kept = more ? rows.slice(0, THIRD_PARTY_LAYER_MAX) : rows
  return {
    count: kept.length,
    more,
    resource: kept.map(
      (r) => [r.id, r.lon, r.lat, r.brand, r.location] as [number, number, number, string, string],
    ),
  }
}

/** Decided submissions as their integrators' webhooks carry them, by id. */
export async function openReviewsByIds(db: DbOrTx, kind: 'volunteer' | 'third_party', ids: number[]) {
  if (ids.length === 0) return []
  const rows = await repo.reviewsByIds(db, kind, ids)
  return rows.map((r) => openReviewObject(kind, r))
}
