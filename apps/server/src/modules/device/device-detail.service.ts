import type { Lang } from '@aed/contracts'
import {
  type CleanAnswer,
  type CleanForm,
  CleanType,
  type InspectionForm,
  type PageDetailQuery,
  type SingleDetailQuery,
} from '@aed/contracts/device-detail'
import { statusOfConditions } from '@aed/contracts/device-rules'
import type { AppContext } from '../../context.ts'
import { forbidden, invalid, notFound } from '../../lib/errors.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { checkStoredImages } from '../files/files.service.ts'
import { updateDevices } from './device.repository.ts'
import { deviceRules } from './device.rules.ts'
import { deviceDetail } from './device.service.ts'
import * as presenter from './device-detail.presenter.ts'
import * as repo from './device-detail.repository.ts'
import { cleanPlan } from './device-detail.rules.ts'

const paging = (q: { page: number; page_size: number }) => ({ page: q.page, page_size: q.page_size })

/** The detail's single tabs: the device itself (base), or its usage log (of one rescue when given). */
export async function singleDetail(ctx: AppContext, auth: AuthContext, q: SingleDetailQuery, lang: Lang) {
  if (q.data_type === 'base') {
    const installation = await repo.registeredBySerial(ctx.db, auth, q.device_sn)
    if (!installation) throw notFound()
    return deviceDetail(ctx, auth, installation.id, lang)
  }
  const { count, rows } = await repo.usageLogs(ctx.db, auth, q.device_sn, paging(q), q.rescue_event_id)
  return { count, resource: rows.map(presenter.presentUsageLog) }
}

/**
 * A record tab of the detail: the device's records of the caller's scope, newest first. Opened
 * from a rescue event (rescue_event_id), only the records of that rescue's span.
 */
export async function pageDetail(ctx: AppContext, auth: AuthContext, q: PageDetailQuery, lang: Lang) {
  let span: repo.Span | undefined
  if (q.rescue_event_id !== undefined) {
    const rescue = await repo.rescueSpan(ctx.db, auth, q.device_sn, q.rescue_event_id)
    if (!rescue) return { count: 0, resource: [] }
    span = { from: rescue.event_time, to: rescue.ended_at }
  }
  const page = paging(q)
  const sn = q.device_sn
  switch (q.data_type) {
    case 'detect': {
      const { count, rows } = await repo.detections(ctx.db, auth, sn, page, span)
      return { count, resource: rows.map((r) => presenter.presentDetection(r, lang)) }
    }
    case 'early_warn': {
      const { count, rows } = await repo.events(ctx.db, auth, sn, 'warning', page, span)
      return { count, resource: rows.map(presenter.presentWarning) }
    }
    case 'fault': {
      const { count, rows } = await repo.events(ctx.db, auth, sn, 'fault', page, span)
      return { count, resource: rows.map((r) => presenter.presentFault(r, lang)) }
    }
    case 'offset': {
      const { count, rows } = await repo.events(ctx.db, auth, sn, 'offset', page, span)
      return { count, resource: rows.map(presenter.presentOffset) }
    }
    case 'inspect': {
      const { count, rows } = await repo.inspections(ctx.db, auth, sn, page, span)
      return { count, resource: rows.map(presenter.presentInspection) }
    }
  }
}

/** How far ahead of the server's clock an inspection time may lie (clocks of browsers drift). */
const CLOCK_SLACK_MS = 5 * 60_000

/** Records a routine inspection of a registered device of the scope, at its installation. */
export async function recordInspection(ctx: AppContext, auth: AuthContext, form: InspectionForm) {
  const installation = await repo.registeredBySerial(ctx.db, auth, form.device_sn)
  if (!installation) throw notFound()
  const at = new Date(form.inspect_time)
  if (at.getTime() > ctx.clock.now().getTime() + CLOCK_SLACK_MS) throw invalid('INSPECT_TIME_FUTURE')
  await checkStoredImages(ctx, form.imgs)
  const row = await repo.insertInspection(ctx.db, {
    device_id: installation.id,
    installation_id: installation.installation_id,
    agency_id: installation.agency_id,
    inspect_status: form.inspect_status,
    process_content: form.process_content,
    inspector_name: form.inspector_name,
    inspect_time: at,
    imgs: form.imgs,
    creator: auth.member_id,
  })
  return { ...presenter.presentInspection(row), device_sn: installation.device_sn }
}

/**
 * Delete install info by serial, in one transaction with the device row locked: the chosen
 * records of the date range that lie in the caller's scope; then the device's status is
 * derived again from the conditions still open. Checks in the spec's order: the serial, a
 * device of the scope with it, at least one data type; 'all' is for system super administrators.
 */
export async function cleanRecords(
  ctx: AppContext,
  auth: AuthContext,
  form: CleanForm,
): Promise<CleanAnswer> {
  const range = { start: form.start_time, end: form.end_time }
  return ctx.db.transaction(async (tx) => {
    const device = await repo.lockDeviceBySerial(tx, auth, form.device_sn)
    if (!device) throw invalid('CLEAN_SN_INVALID')
    if (form.data_type.length === 0) throw invalid('CLEAN_TYPE_REQUIRED')
    if (form.data_type.includes(CleanType.ALL) && !deviceRules.cleanAll(auth)) {
      throw forbidden()
    }
    if (range.start && range.end && range.start > range.end) throw invalid('SETTINGS_TIME_ORDER')
    const plan = cleanPlan(form.data_type)
    const events = await repo.deleteEvents(tx, auth, device.id, plan.kinds, range)
    const deleted = {
      rescue: plan.rescues ? await repo.deleteRescues(tx, auth, device.id, range) : 0,
      early_warn: events.get('warning') ?? 0,
      offset: events.get('offset') ?? 0,
      fault: events.get('fault') ?? 0,
      offline: events.get('offline') ?? 0,
      detect: plan.detections ? await repo.deleteDetections(tx, auth, device.id, range) : 0,
    }
    const status = statusOfConditions(await repo.openKinds(tx, device.id))
    if (status !== device.status) await updateDevices(tx, [device.id], { status })
    return {
      device_sn: device.device_sn,
      data_type: [...new Set(form.data_type)],
      start_time: form.start_time ?? null,
      end_time: form.end_time ?? null,
      deleted,
    }
  })
}
