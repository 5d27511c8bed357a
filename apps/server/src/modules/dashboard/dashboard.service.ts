import type { Lang } from '@aed/contracts'
import {
  type DeviceLocationQuery,
  type EventFocus,
  type EventFocusQuery,
  type EventLocationQuery,
  FocusEventType,
  MAP_DEVICE_STATUSES,
  RESCUE_LAYER_HOURS,
  RESCUE_LAYER_MAX,
} from '@aed/contracts/dashboard'
import { regionPrefix } from '@aed/contracts/regions'
import type { AppContext } from '../../context.ts'
import { notFound } from '../../lib/errors.ts'
import { RawJson } from '../../lib/raw-json.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { deviceDetail } from '../device/device.service.ts'
import { getMessage } from '../message/message.service.ts'
import { presentFocus, presentPopup, presentRescue } from './dashboard.presenter.ts'
import * as repo from './dashboard.repository.ts'

/** The region prefix of the query's address_code, or null for the whole scope. */
const prefixOf = (q: { address_code?: string }) => (q.address_code ? regionPrefix(q.address_code) : null)

/** The layer with nothing ticked: no device asked for, so no read. */
const NONE = new RawJson('{"0":[],"1":[],"2":[],"3":[],"4":[],"unplaced":0}')

/**
 * The device layer: the scope's registered devices in the region as points per shown status,
 * as JSON text (see RawJson). status_list absent or holding every status reads them all.
 */
export async function deviceLocation(
  ctx: AppContext,
  auth: AuthContext,
  q: DeviceLocationQuery,
): Promise<RawJson> {
  const asked = q.status_list ? [...new Set(q.status_list)] : null
  if (asked?.length === 0) return NONE
  const statuses = asked && asked.length < MAP_DEVICE_STATUSES.length ? asked : null
  return new RawJson(await repo.deviceLocationJson(ctx.db, auth, prefixOf(q), statuses))
}

/** A point's popup: one registered device of the scope (not found outside it or unregistered). */
export async function devicePopup(ctx: AppContext, auth: AuthContext, id: number, lang: Lang) {
  return presentPopup(await deviceDetail(ctx, auth, id, lang))
}

/** The rescue layer: in progress, or ended within RESCUE_LAYER_HOURS of the app's clock. */
export async function rescueLocation(ctx: AppContext, auth: AuthContext, q: EventLocationQuery) {
  const since = new Date(ctx.clock.now().getTime() - RESCUE_LAYER_HOURS * 3_600_000)
  const rows = await repo.rescueLocations(ctx.db, auth, prefixOf(q), since, RESCUE_LAYER_MAX)
  return { count: rows[0]?.total ?? 0, resource: rows.map(presentRescue) }
}

const focusOf = {
  [FocusEventType.CALL]: repo.callFocus,
  [FocusEventType.RESCUE]: repo.rescueFocus,
  [FocusEventType.OFFSET]: repo.offsetFocus,
  [FocusEventType.CABINET_DOOR]: repo.doorFocus,
} as const

/** The event a message's details link opens (a call, rescue, offset or cabinet door): its place, title and message. */
export async function eventFocus(
  ctx: AppContext,
  auth: AuthContext,
  q: EventFocusQuery,
  lang: Lang,
): Promise<EventFocus> {
  const read = focusOf[q.event_type as keyof typeof focusOf]
  const row = await read(ctx.db, auth, q.event_id)
  if (!row) throw notFound()
  const message = row.message_id === null ? null : await getMessage(ctx, auth, row.message_id, lang)
  return presentFocus(q.event_type, row, message, lang)
}
