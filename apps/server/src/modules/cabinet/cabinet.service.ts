import {
  type CabinetCreate,
  type CabinetListQuery,
  type CabinetUpdate,
  CabinetUpdateType,
} from '@aed/contracts/cabinet'
import { DEVICE_SN, modelOfSerial } from '@aed/contracts/device'
import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { isUniqueViolation, type PageRequest } from '../../db/sql.ts'
import { forbidden, invalid, notFound } from '../../lib/errors.ts'
import { newDeviceSecret } from '../../lib/sealed.ts'
import { formatDateTime } from '../../lib/time.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { agencyInScope } from '../agency/agency.service.ts'
import { recheckDevices } from '../engine/engine.jobs.ts'
import { aedSerialsIn, takenCabinetSerials } from '../serial/serial.service.ts'
import {
  cabinetListCan,
  cabinetRules,
  presentBind,
  presentCabinet,
  presentCabinetDetail,
} from './cabinet.presenter.ts'
import * as repo from './cabinet.repository.ts'

export async function listCabinets(ctx: AppContext, auth: AuthContext, q: CabinetListQuery) {
  const { count, rows } = await repo.listCabinets(ctx.db, auth, q)
  return { count, resource: rows.map((r) => presentCabinet(r, auth)), can: cabinetListCan(auth) }
}

/** A live cabinet of the scope, or 资源不存在. */
export async function cabinetInScope(db: DbOrTx, auth: AuthContext, id: number, lock = false) {
  const row = await repo.findCabinet(db, auth, id, lock)
  if (!row) throw notFound()
  return row
}

export async function cabinetDetail(ctx: AppContext, auth: AuthContext, id: number) {
  const row = await cabinetInScope(ctx.db, auth, id)
  return presentCabinetDetail(row, await repo.lastBind(ctx.db, row.id), auth)
}

/**
 * A bind record (assignment 1, bind 2, unbind 3): the cabinet, the AED it held or took (its model
 * read from the serial), the organisation, and the member who did it.
 */
const bindRecord = (
  auth: AuthContext,
  cabinetId: number,
  action: repo.NewBind['action'],
  device: { id: number | null; sn: string | null },
  agency: { id: number; name: string },
): repo.NewBind => ({
  cabinet_id: cabinetId,
  action,
  device_id: device.id,
  device_sn: device.sn,
  device_model: device.sn ? modelOfSerial(device.sn) : null,
  agency_id: agency.id,
  agency_name: agency.name,
  operator_id: auth.member_id,
  operator: auth.user_name,
})

/** The organisation an assignment goes to: one of the scope. */
async function assignTarget(ctx: AppContext, auth: AuthContext, agencyId: number | undefined) {
  if (!cabinetRules.assign(auth)) throw forbidden('NO_PERMISSION')
  if (agencyId === undefined) throw invalid('DEVICE_AGENCY_REQUIRED')
  const agency = await agencyInScope(ctx, auth, agencyId)
  if (!agency) throw invalid('DEVICE_AGENCY_REQUIRED')
  return agency
}

/**
 * Assigns cabinets to an organisation of the scope, each with a bind record (action 1) naming
 * the AED it holds, if any (the AED stays bound: it moves with its cabinet).
 */
async function assign(
  ctx: AppContext,
  tx: DbOrTx,
  auth: AuthContext,
  rows: repo.CabinetRow[],
  agency: { id: number; name: string },
) {
  await repo.updateCabinets(
    tx,
    rows.map((r) => r.id),
    { agency_id: agency.id },
  )
  await repo.insertBinds(
    tx,
    rows.map((r) =>
      bindRecord(auth, r.id, CabinetUpdateType.ASSIGN, { id: r.device_id, sn: r.device_sn }, agency),
    ),
    ctx.clock.now(),
  )
}

/** The AED a bind names: a live device of the scope, not in another cabinet. */
async function bindableDevice(tx: DbOrTx, auth: AuthContext, raw: string | undefined) {
  if (raw === undefined) throw invalid('CABINET_BIND_SN_REQUIRED')
  const sn = raw.trim()
  if (!sn) throw invalid('CABINET_BIND_SN_EMPTY')
  if (!DEVICE_SN.test(sn)) throw invalid('CABINET_BIND_SN_INVALID')
  const [device] = await repo.bindableDevices(tx, auth, [sn])
  if (!device) throw invalid('DEVICE_NOT_FOUND')
  return device
}

/** update_type 1 assign, 2 bind an AED, 3 unbind; each writes a bind record. */
export async function updateCabinet(ctx: AppContext, auth: AuthContext, id: number, body: CabinetUpdate) {
  if (body.update_type === CabinetUpdateType.ASSIGN) {
    const agency = await assignTarget(ctx, auth, body.agency_id)
    await ctx.db.transaction(async (tx) => {
      await assign(ctx, tx, auth, [await cabinetInScope(tx, auth, id, true)], agency)
    })
    return cabinetDetail(ctx, auth, id)
  }
  if (!cabinetRules.bind(auth)) throw forbidden('NO_PERMISSION')
  // The AED that left or joined: its "not returned" warning follows at once, not at the next recheck.
  let changedDevice: number | null = null
  try {
    await ctx.db.transaction(async (tx) => {
      const row = await cabinetInScope(tx, auth, id, true)
      const bind = body.update_type === CabinetUpdateType.BIND
      // The AED the cabinet takes (bind) or lets go (unbind).
      let aed: { id: number; sn: string | null }
      if (bind) {
        if (row.device_id !== null) throw invalid('CABINET_ALREADY_BOUND')
        const device = await bindableDevice(tx, auth, body.device_sn)
        if (device.cabinet_id !== null)
          throw invalid('CABINET_BIND_DEVICE_BOUND', { cabinet_sn: device.cabinet_sn ?? '' })
        aed = { id: device.id, sn: device.device_sn }
      } else {
        if (row.device_id === null) throw invalid('CABINET_NOT_BOUND')
        aed = { id: row.device_id, sn: row.device_sn }
      }
      await repo.updateCabinets(tx, [row.id], { device_id: bind ? aed.id : null })
      changedDevice = aed.id
      const action = bind ? CabinetUpdateType.BIND : CabinetUpdateType.UNBIND
      const agency = { id: row.agency_id, name: row.agency_name }
      await repo.insertBinds(tx, [bindRecord(auth, row.id, action, aed, agency)], ctx.clock.now())
    })
  } catch (err) {
    // Another cabinet took the AED between the check and the write: the unique index refused it.
    if (isUniqueViolation(err, 'cabinets_device_idx'))
      throw invalid('CABINET_BIND_DEVICE_BOUND', { cabinet_sn: '' })
    throw err
  }
  if (changedDevice !== null) await recheckDevices(ctx, [changedDevice])
  return cabinetDetail(ctx, auth, id)
}

/** The toolbar's assign: every selected cabinet of the scope, or none. */
export async function assignCabinets(ctx: AppContext, auth: AuthContext, agencyId: number, ids: number[]) {
  if (!cabinetRules.assign(auth)) throw forbidden('NO_PERMISSION')
  if (ids.length === 0) throw invalid('DEVICE_ASSIGN_EMPTY')
  const agency = await assignTarget(ctx, auth, agencyId)
  const unique = [...new Set(ids)]
  return ctx.db.transaction(async (tx) => {
    const rows = await repo.cabinetsByIds(tx, auth, unique)
    if (rows.length !== unique.length) throw notFound()
    await assign(ctx, tx, auth, rows, agency)
    return { agency_id: agency.id, agency_name: agency.name, cabinet_sn_list: rows.map((r) => r.cabinet_sn) }
  })
}

/** Deletes cabinets by number (super administrators): all of the scope and unbound, or none. */
export async function destroyCabinets(ctx: AppContext, auth: AuthContext, serials: string[]) {
  if (!cabinetRules.delete(auth)) throw forbidden('NO_PERMISSION')
  const unique = [...new Set(serials.map((s) => s.trim()).filter(Boolean))]
  if (unique.length === 0) throw invalid('CABINET_DELETE_EMPTY')
  return ctx.db.transaction(async (tx) => {
    const rows = await repo.cabinetsBySerials(tx, auth, unique)
    if (rows.length !== unique.length) throw notFound()
    if (rows.some((r) => r.device_id !== null)) throw invalid('CABINET_DELETE_BOUND')
    await repo.updateCabinets(
      tx,
      rows.map((r) => r.id),
      { deleted_at: ctx.clock.now() },
    )
    return { cabinet_sn_list: rows.map((r) => r.cabinet_sn) }
  })
}

/**
 * A new cabinet (system super administrators: it is provisioning, and the answer carries the
 * secret, this once).
 */
export async function createCabinet(ctx: AppContext, auth: AuthContext, body: CabinetCreate) {
  const agency = await agencyInScope(ctx, auth, body.agency_id)
  if (!agency) throw invalid('DEVICE_AGENCY_REQUIRED')
  const secret = newDeviceSecret()
  let id: number
  try {
    id = await ctx.db.transaction(async (tx) => {
      if ((await takenCabinetSerials(tx, [body.cabinet_sn])).size > 0) throw invalid('CABINET_SN_TAKEN')
      if ((await aedSerialsIn(tx, [body.cabinet_sn])).size > 0)
        throw invalid('CABINET_SN_USED_BY_AED', { sn: body.cabinet_sn })
      const [created] = await repo.insertCabinets(tx, [
        {
          cabinet_sn: body.cabinet_sn,
          agency_id: agency.id,
          secret_enc: ctx.sealer.seal(secret),
          device_id: null,
          creator: auth.member_id,
        },
      ])
      return created
    })
  } catch (err) {
    if (isUniqueViolation(err, 'cabinets_sn_live_idx')) throw invalid('CABINET_SN_TAKEN')
    throw err
  }
  return { ...(await cabinetDetail(ctx, auth, id)), secret }
}

/** Self-check records of a cabinet of the scope. */
export async function cabinetRecords(ctx: AppContext, auth: AuthContext, id: number, page: PageRequest) {
  const row = await cabinetInScope(ctx.db, auth, id)
  const { count, rows } = await repo.cabinetRecords(ctx.db, row.id, page)
  return {
    count,
    resource: rows.map((r) => ({
      ...r,
      update_time: formatDateTime(r.update_time),
    })),
  }
}

/** Bind records of a cabinet of the scope. */
export async function bindRecords(ctx: AppContext, auth: AuthContext, id: number, page: PageRequest) {
  const row = await cabinetInScope(ctx.db, auth, id)
  const { count, rows } = await repo.bindRecords(ctx.db, row.id, page)
  return { count, resource: rows.map(presentBind) }
}

/** The cabinet's secret, for provisioning (system super administrators; logged). */
export async function credential(ctx: AppContext, auth: AuthContext, id: number) {
  const row = await repo.cabinetSecrets(ctx.db, id)
  if (!row || !(await agencyInScope(ctx, auth, row.agency_id))) throw notFound()
  return { sn: row.cabinet_sn, secret: ctx.sealer.open(row.secret_enc) }
}

/** A new secret; the old one keeps working for 24 hours so the cabinet can be re-provisioned. */
export async function rotateCredential(ctx: AppContext, auth: AuthContext, id: number) {
  const row = await repo.cabinetSecrets(ctx.db, id)
  if (!row || !(await agencyInScope(ctx, auth, row.agency_id))) throw notFound()
  const secret = newDeviceSecret()
  await repo.rotateSecret(
    ctx.db,
    row.id,
    ctx.sealer.seal(secret),
    row.secret_enc,
    new Date(ctx.clock.now().getTime() + 24 * 3600_000),
  )
  return { sn: row.cabinet_sn, secret }
}
