import type { Lang } from '@aed/contracts'
import { DATA_DICT } from '@aed/contracts/constants'
import { type DeviceForm, type DeviceListQuery, type DeviceUpdate, UpdateType } from '@aed/contracts/device'
import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import { forbidden, invalid, notFound } from '../../lib/errors.ts'
import { newDeviceSecret } from '../../lib/sealed.ts'
import { formatDate } from '../../lib/time.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { agencyInScope } from '../agency/agency.service.ts'
import { recheckDevices } from '../engine/engine.jobs.ts'
import { managerInScope } from '../member/member.service.ts'
import { deviceListCan, presentDevice, presentFactoryDevice } from './device.presenter.ts'
import * as repo from './device.repository.ts'
import { deviceRules } from './device.rules.ts'
import { exportDeviceList } from './device-io.service.ts'

// The factory devices' creation is in its own file: the factory import (device-io.service.ts)
// needs it, and this file needs that one's export.
export { createFactoryDevices } from './device-factory.service.ts'

const bands = {
  battery: DATA_DICT.battery_band,
  expiry: DATA_DICT.expiry_band,
  host: DATA_DICT.host_expiry_band,
}

/** The registered list, or the factory list with device_list_type 2: one page, filtered in the database. */
export async function listDevices(ctx: AppContext, auth: AuthContext, q: DeviceListQuery, lang: Lang) {
  if (q.device_list_type === 2) {
    const { count, rows } = await repo.listFactory(ctx.db, auth, q)
    return { count, resource: rows.map((r) => presentFactoryDevice(r, auth)), can: deviceListCan(auth) }
  }
  // export_xls: 设备列表.xlsx of every matching row, streamed in keyset batches (device-io).
  if (q.export_xls) return exportDeviceList(ctx, auth, q)
  const { count, rows } = await repo.listRegistered(ctx.db, auth, q, bands, ctx.clock.now())
  return {
    count,
    resource: rows.map((r) => presentDevice(r, auth, { masked: true, lang })),
    can: deviceListCan(auth),
  }
}

async function registered(db: DbOrTx, auth: AuthContext, id: number) {
  const row = await repo.findRegistered(db, auth, id)
  if (!row) throw notFound()
  return row
}

export async function deviceDetail(ctx: AppContext, auth: AuthContext, id: number, lang: Lang) {
  return presentDevice(await registered(ctx.db, auth, id), auth, { masked: false, lang })
}

/** Expiry dates cannot lie before the end of today (in the console's time zone). */
function checkExpiry(ctx: AppContext, form: DeviceForm) {
  const today = formatDate(ctx.clock.now())
  for (const d of [form.battery_expire, form.electrode_sheet_expire, form.host_expire]) {
    if (d < today) throw invalid('EXPIRE_BEFORE_TODAY')
  }
}

/** The organisation and the manager must lie in the scope; managers are never general users. */
async function checkPeople(ctx: AppContext, auth: AuthContext, form: DeviceForm) {
  if (!(await agencyInScope(ctx, auth, form.agency_id))) throw invalid('DEVICE_AGENCY_REQUIRED')
  if (form.device_manager_id && !(await managerInScope(ctx, auth, form.device_manager_id))) {
    throw invalid('DEVICE_MANAGER_INVALID')
  }
}

/** sms-off and abnormal-display-off are for super administrators: others keep what is stored. */
function flags(auth: AuthContext, form: DeviceForm, current: { sms: number; display: number }) {
  const sms = form.disable_abnormal_sms_notify ?? current.sms
  const display = form.disable_abnormal_display ?? current.display
  if (!deviceRules.abnormalSwitches(auth) && (sms !== current.sms || display !== current.display)) {
    throw forbidden('NO_PERMISSION')
  }
  return { disable_abnormal_sms_notify: sms, disable_abnormal_display: display }
}

/** The installation's fields of the dialog. */
function installationValues(form: DeviceForm) {
  return {
    agency_id: form.agency_id,
    location: form.location,
    location_desc: form.location_desc ?? null,
    address_code: form.address_code ?? null,
    lat: form.lat,
    lon: form.lon,
    device_manager_id: form.device_manager_id ?? null,
    contact: form.contact ?? null,
    contact_phone: form.contact_phone ?? null,
    open_state: form.open_state,
    open_day: form.open_state === 1 ? form.open_day : [],
    open_time_period: form.open_state === 1 ? form.open_time_period : [],
    xcx_display: form.xcx_display,
    chest_shot_img: form.chest_shot_img,
    long_shot_img: form.long_shot_img,
    battery_expire: form.battery_expire,
    electrode_sheet_expire: form.electrode_sheet_expire,
    host_expire: form.host_expire,
    safety_radius: form.safety_radius ?? null,
  }
}

/** The one device of the caller's factory list with this serial, or 未找到设备！. */
async function factoryDevice(db: DbOrTx, auth: AuthContext, sn: string) {
  const found = await repo.factoryBySerials(db, auth, [sn])
  if (found.length !== 1) throw invalid('DEVICE_NOT_FOUND')
  return found[0]
}

/** Registers a device of the factory list at an installation: a new installation and its first change row. */
export async function registerDevice(ctx: AppContext, auth: AuthContext, form: DeviceForm, lang: Lang) {
  checkExpiry(ctx, form)
  await checkPeople(ctx, auth, form)
  const id = await ctx.db.transaction(async (tx) => {
    const device = await factoryDevice(tx, auth, form.device_sn)
    const [locked] = await repo.factoryByIds(tx, auth, [device.id])
    if (locked.installation_id !== null) throw invalid('DEVICE_REGISTERED')
    const installationId = await repo.insertInstallation(tx, {
      ...installationValues(form),
      ...flags(auth, form, { sms: 0, display: 0 }),
      register_code: await repo.nextRegisterCode(tx, formatDate(ctx.clock.now())),
      device_id: device.id,
      registrant: auth.member_id,
      updator: auth.member_id,
    })
    await repo.updateDevices(tx, [device.id], { installation_id: installationId })
    await repo.insertChange(tx, {
      installation_id: installationId,
      update_type: UpdateType.REGISTER,
      update_field: '注册设备',
      updator: auth.member_id,
      updator_name: auth.user_name,
    })
    return device.id
  })
  await recheckAfterChange(ctx, [id])
  return deviceDetail(ctx, auth, id, lang)
}

/** Labels of the dialog's fields, for the change record's update_field. */
const FIELD_LABELS: Record<string, string> = {
  agency_id: '所属机构',
  location: '导航地址',
  location_desc: '详细位置',
  address_code: '所在地区',
  lat: '坐标',
  lon: '坐标',
  device_manager_id: '设备管理员',
  contact: '联系人',
  contact_phone: '联系电话',
  open_state: '开放状态',
  open_day: '开放日',
  open_time_period: '开放时段',
  xcx_display: '小程序显示',
  disable_abnormal_sms_notify: '关闭异常短信',
  disable_abnormal_display: '关闭异常状态显示',
  chest_shot_img: '近景图片',
  long_shot_img: '远景图片',
  battery_expire: '电池有效期',
  electrode_sheet_expire: '电极片有效期',
  host_expire: '主机有效期',
  safety_radius: '安全半径',
}

function changedFields(before: Record<string, unknown>, after: Record<string, unknown>) {
  const labels = Object.keys(after)
    .filter((k) => FIELD_LABELS[k] && JSON.stringify(before[k] ?? null) !== JSON.stringify(after[k] ?? null))
    .map((k) => FIELD_LABELS[k])
  return [...new Set(labels)].join('、')
}

/** A routine change (1), a move (2) or a replacement (3) of an installed device. */
export async function updateDevice(
  ctx: AppContext,
  auth: AuthContext,
  id: number,
  body: DeviceUpdate,
  lang: Lang,
) {
  const row = await registered(ctx.db, auth, id)
  checkExpiry(ctx, body)
  await checkPeople(ctx, auth, body)
  const values = {
    ...installationValues(body),
    ...flags(auth, body, { sms: row.disable_abnormal_sms_notify, display: row.disable_abnormal_display }),
  }
  const moved = body.location !== row.location || (body.location_desc ?? null) !== row.location_desc
  if (body.update_type === UpdateType.MOVE && !moved) throw invalid('LOCATION_UNCHANGED')
  const nextId = await ctx.db.transaction(async (tx) => {
    let deviceId = row.id
    let oldSn: string | null = null
    if (body.update_type === UpdateType.REPLACE) {
      const sn = body.new_device_sn?.trim()
      if (!sn) throw invalid('NEW_SN_REQUIRED')
      if (sn === row.device_sn) throw invalid('SN_UNCHANGED')
      const next = await factoryDevice(tx, auth, sn)
      const [locked] = await repo.factoryByIds(tx, auth, [next.id])
      if (locked.installation_id !== null) throw invalid('DEVICE_REGISTERED')
      await repo.updateDevices(tx, [row.id], { installation_id: null })
      await repo.updateDevices(tx, [next.id], { installation_id: row.installation_id })
      deviceId = next.id
      oldSn = row.device_sn
    }
    await repo.updateInstallation(tx, row.installation_id, {
      ...values,
      device_id: deviceId,
      updator: auth.member_id,
    })
    const fields = changedFields(row as unknown as Record<string, unknown>, values)
    await repo.insertChange(tx, {
      installation_id: row.installation_id,
      update_type: body.update_type,
      update_field:
        body.update_type === UpdateType.REPLACE ? ['设备SN', fields].filter(Boolean).join('、') : fields,
      old_device_sn: oldSn,
      updator: auth.member_id,
      updator_name: auth.user_name,
    })
    return deviceId
  })
  await recheckAfterChange(ctx, nextId === row.id ? [row.id] : [row.id, nextId])
  return deviceDetail(ctx, auth, nextId, lang)
}

/**
 * The installation's dates, thresholds or the device at it changed: the engine re-checks the devices'
 * warnings and offsets now. The change is committed already; a failure here is left to the
 * hourly re-check rather than answered as a failed save.
 */
async function recheckAfterChange(ctx: AppContext, ids: number[]) {
  try {
    await recheckDevices(ctx, ids)
  } catch (e) {
    ctx.log.error(
      { devices: ids, err: { message: (e as Error).message } },
      'device re-check failed; the hourly job retries',
    )
  }
}

/** Deletes the install information: the installation ends and the device is unregistered again. */
export async function uninstallDevice(ctx: AppContext, auth: AuthContext, id: number) {
  const row = await registered(ctx.db, auth, id)
  await ctx.db.transaction(async (tx) => {
    await repo.updateInstallation(tx, row.installation_id, {
      device_id: null,
      removed_at: ctx.clock.now(),
      updator: auth.member_id,
    })
    await repo.updateDevices(tx, [row.id], { installation_id: null })
    await repo.insertChange(tx, {
      installation_id: row.installation_id,
      update_type: UpdateType.DELETE,
      update_field: '删除安装信息',
      old_device_sn: row.device_sn,
      updator: auth.member_id,
      updator_name: auth.user_name,
    })
  })
  await recheckAfterChange(ctx, [row.id])
  return { id: row.id, device_sn: row.device_sn, register_code: row.register_code }
}

/** Deletes a device of the factory list; a registered one must lose its install information first. */
export async function deleteFactoryDevice(ctx: AppContext, auth: AuthContext, id: number) {
  return ctx.db.transaction(async (tx) => {
    const [row] = await repo.factoryByIds(tx, auth, [id])
    if (!row) throw notFound()
    if (row.installation_id !== null) throw invalid('DEVICE_STILL_REGISTERED')
    await repo.updateDevices(tx, [row.id], { deleted_at: ctx.clock.now() })
    return { id: row.id, device_sn: row.device_sn, register_code: null }
  })
}

/** The change record of an installation of the scope. */
export async function changeRecord(ctx: AppContext, auth: AuthContext, registerCode: string) {
  const rows = await repo.changeRecord(ctx.db, auth, registerCode)
  return {
    count: rows.length,
    resource: rows.map((r) => ({
      update_time: r.update_time.toISOString(),
      updator: r.updator_name,
      update_field: r.update_field,
      old_device_sn: r.old_device_sn,
      update_type: r.update_type,
    })),
  }
}

/**
 * Assigns factory devices to an organisation of the scope: super administrators who may edit
 * devices (the spec: role_type 0, not read-only).
 */
export async function assignDevices(ctx: AppContext, auth: AuthContext, agencyId: number, ids: number[]) {
  if (!deviceRules.assign(auth)) throw forbidden()
  if (ids.length === 0) throw invalid('DEVICE_ASSIGN_EMPTY')
  const agency = await agencyInScope(ctx, auth, agencyId)
  if (!agency) throw invalid('DEVICE_AGENCY_REQUIRED')
  return ctx.db.transaction(async (tx) => {
    const rows = await repo.factoryByIds(tx, auth, [...new Set(ids)])
    if (rows.length !== new Set(ids).size) throw notFound()
    await repo.updateDevices(
      tx,
      rows.map((r) => r.id),
      { agency_id: agency.id },
    )
    return { agency_id: agency.id, agency_name: agency.name, device_sn_list: rows.map((r) => r.device_sn) }
  })
}

/** The device's secret, for provisioning (system super administrators; logged). */
export async function credential(ctx: AppContext, auth: AuthContext, id: number) {
  const row = await repo.deviceSecrets(ctx.db, { id })
  if (!row || !(await agencyInScope(ctx, auth, row.agency_id))) throw notFound()
  return { sn: row.device_sn, secret: ctx.sealer.open(row.secret_enc) }
}

/** A new secret; the old one keeps working for 24 hours so the device can be re-provisioned. */
export async function rotateCredential(ctx: AppContext, auth: AuthContext, id: number) {
  const row = await repo.deviceSecrets(ctx.db, { id })
  if (!row || !(await agencyInScope(ctx, auth, row.agency_id))) throw notFound()
  const secret = newDeviceSecret()
  await repo.updateDevices(ctx.db, [row.id], {
    secret_enc: ctx.sealer.seal(secret),
    prev_secret_enc: row.secret_enc,
    prev_secret_until: new Date(ctx.clock.now().getTime() + 24 * 3600_000),
  })
  return { sn: row.device_sn, secret }
}

/** The gateway's lookup: a live device's secrets by serial (the previous one within its 24 hours). */
export async function deviceCredentials(ctx: AppContext, sn: string) {
  const row = await repo.deviceSecrets(ctx.db, { sn })
  if (!row) return null
  const secrets = [ctx.sealer.open(row.secret_enc)]
  if (row.prev_secret_enc && row.prev_secret_until && row.prev_secret_until > ctx.clock.now()) {
    secrets.push(ctx.sealer.open(row.prev_secret_enc))
  }
  return {
    kind: 'aed' as const,
    id: row.id,
    sn: row.device_sn,
    secrets,
    commandsWaiting: row.commands_waiting,
  }
}
