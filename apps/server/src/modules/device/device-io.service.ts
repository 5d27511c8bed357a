import { Code, type Lang, type MessageKey, maskPhone, translate } from '@aed/contracts'
import { DATA_DICT, dictLabel } from '@aed/contracts/constants'
import {
  DEVICE_SN,
  type DeviceListQuery,
  deviceListQuery,
  modelOfSerial,
  POSITIONING_TYPE_LABELS,
} from '@aed/contracts/device'
import {
  type DataExportQuery,
  DEVICE_EXPORT_DAYS,
  EXPORT_FILE_NAMES,
  ExportType,
  IMPORT_MAX_ROWS,
  type ImportResult,
} from '@aed/contracts/device-io'
import type { UploadedPart } from '@aed/contracts/files'
import { regionFullName } from '@aed/contracts/regions'
import type { AppContext } from '../../context.ts'
import { isUniqueViolation } from '../../db/sql.ts'
import { AppError, forbidden, invalid } from '../../lib/errors.ts'
import { formatDate } from '../../lib/time.ts'
import { readTemplateSheet, SheetReadError } from '../../lib/xlsx-reader.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { streamXlsx, type XlsxColumn, xlsxBuffer } from '../../providers/storage/xlsx.ts'
import { agencyInScope } from '../agency/agency.service.ts'
import { checkUpload } from '../files/files.service.ts'
import { cabinetSerialsIn, takenSerials } from '../serial/serial.service.ts'
import { TEMPLATE_HEADERS } from '../system/import-template.ts'
import { deviceRules } from './device.rules.ts'
import { createFactoryDevices } from './device-factory.service.ts'
import {
  capped,
  detectionBatches,
  type ExportDetectionRow,
  type ExportDeviceRow,
  type ExportInspectionRow,
  type ExportRescueRow,
  inspectionBatches,
  localTime,
  prefetched,
  registeredBatches,
  rescueBatches,
} from './device-io.repository.ts'

/** Rows one export may hold; a larger one must be narrowed by its filters or dates. */
export const EXPORT_LIMIT = 200_000

const bands = {
  battery: DATA_DICT.battery_band,
  expiry: DATA_DICT.expiry_band,
  host: DATA_DICT.host_expiry_band,
}

/** Labels of the data dictionary (the export is in the spec's language). */
const label = (key: 'device_status' | 'open_state') =>
  new Map(DATA_DICT[key].map((e) => [e.value, e.label[0]] as const))
const statusLabel = label('device_status')
const openStateLabel = label('open_state')

const positioning = (t: string | null) => (t === null ? null : (POSITIONING_TYPE_LABELS[t]?.[0] ?? t))

/**
 * The device list's columns in the console's words (phones masked, as the list shows them); the
 * electrode voltage only for system super administrators, as the list shows it.
 */
function deviceColumns(withCableVoltage: boolean): XlsxColumn<ExportDeviceRow>[] {
  // Region names by code, looked up once per export rather than once per row.
  const regions = new Map<string, string | null>()
  const region = (code: string | null) => {
    if (!code) return null
    if (!regions.has(code)) regions.set(code, regionFullName(code))
    return regions.get(code) ?? null
  }
  return [
    { header: '设备SN', width: 18, value: (d) => d.device_sn },
    { header: '型号', width: 10, value: (d) => d.model },
    { header: '设备状态', width: 10, value: (d) => statusLabel.get(d.status) ?? String(d.status) },
    { header: '电量(%)', width: 9, value: (d) => d.battery },
    { header: '所属机构', width: 24, value: (d) => d.agency_name },
    { header: '所在地区', width: 24, value: (d) => region(d.address_code) },
    { header: '导航地址', width: 36, value: (d) => d.location },
    { header: '详细位置', width: 20, value: (d) => d.location_desc },
    { header: '设备管理员', width: 12, value: (d) => d.manager_name },
    { header: '管理员电话', width: 14, value: (d) => maskPhone(d.manager_phone) },
    { header: '开放状态', width: 10, value: (d) => openStateLabel.get(d.open_state) ?? '' },
    { header: '电池有效期', width: 12, value: (d) => d.battery_expire },
    { header: '电极片有效期', width: 12, value: (d) => d.electrode_sheet_expire },
    { header: '主机有效期', width: 12, value: (d) => d.host_expire },
    { header: '固件版本', width: 12, value: (d) => d.fw_version },
    { header: '注册码', width: 18, value: (d) => d.register_code },
    { header: '注册时间', width: 20, value: (d) => localTime(d.register_time) },
    { header: '信号强度(dBm)', width: 14, value: (d) => d.rssi },
    { header: '定位方式', width: 10, value: (d) => positioning(d.positioning_type) },
    ...(withCableVoltage
      ? [{ header: '电极电压(V)', width: 12, value: (d: ExportDeviceRow) => d.cable_voltage }]
      : []),
  ]
}

const place = (r: { location: string | null; location_desc: string | null }) =>
  [r.location, r.location_desc].filter(Boolean).join(' ')

const inspectionColumns: XlsxColumn<ExportInspectionRow>[] = [
  { header: '设备SN', width: 18, value: (r) => r.device_sn },
  { header: '型号', width: 10, value: (r) => r.model },
  { header: '所属机构', width: 24, value: (r) => r.agency_name },
  { header: '安装位置', width: 36, value: place },
  { header: '巡检状态', width: 10, value: (r) => dictLabel('inspect_status', r.inspect_status) },
  { header: '处理内容', width: 40, value: (r) => r.process_content },
  { header: '巡检人', width: 12, value: (r) => r.inspector_name },
  { header: '巡检时间', width: 20, value: (r) => localTime(r.inspect_time) },
]

const reportTypeLabel = new Map(DATA_DICT.report_type.map((e) => [e.value, e.label[0]] as const))

const detectionColumns: XlsxColumn<ExportDetectionRow>[] = [
  { header: '设备SN', width: 18, value: (r) => r.device_sn },
  { header: '型号', width: 10, value: (r) => r.model },
  { header: '所属机构', width: 24, value: (r) => r.agency_name },
  { header: '安装位置', width: 36, value: place },
  {
    header: '检测类型',
    width: 12,
    value: (r) => reportTypeLabel.get(r.report_type) ?? String(r.report_type),
  },
  { header: '检测结果', width: 10, value: (r) => (r.check_result === 1 ? '正常' : '异常') },
  { header: '故障码', width: 20, value: (r) => r.fault_codes.join('、') },
  { header: '电量(%)', width: 9, value: (r) => r.battery },
  { header: '检测时间', width: 20, value: (r) => localTime(r.check_time) },
]

const rescueColumns: XlsxColumn<ExportRescueRow>[] = [
  { header: '急救事件编号', width: 20, value: (r) => r.rescue_event_id },
  { header: '设备SN', width: 18, value: (r) => r.device_sn },
  { header: '型号', width: 10, value: (r) => r.model },
  { header: '所属机构', width: 24, value: (r) => r.agency_name },
  { header: '安装位置', width: 36, value: place },
  { header: '设备管理员', width: 12, value: (r) => r.manager_name },
  { header: '急救地点', width: 36, value: (r) => r.event_location },
  { header: '经度', width: 12, value: (r) => r.event_lon },
  { header: '纬度', width: 12, value: (r) => r.event_lat },
  { header: '开始时间', width: 20, value: (r) => localTime(r.event_time) },
  { header: '结束时间', width: 20, value: (r) => (r.ended_at ? localTime(r.ended_at) : null) },
]

/**
 * An export's reader, stopped past the limit. Batches are small because what a batch holds
 * outlives the collector's young generation and is promoted: at 2,000 rows (and one read ahead)
 * a 100,000-row export left the heap 110-120 MB larger, at 500-1,000 rows 20-25 MB. PostgreSQL
 * reads the next batch while this one is written (the server works meanwhile; the export waits
 * on it most of its time). PGlite runs its queries in this thread, so reading ahead overlaps
 * nothing and only holds a batch more; its batches are 1,000 rows, as 500 cost 10-15 % more.
 */
function reading<T>(ctx: AppContext, read: (size: number) => AsyncIterable<T[]>) {
  if (ctx.database.kind === 'postgres') return capped(prefetched(read(500)), EXPORT_LIMIT)
  return capped(read(1000), EXPORT_LIMIT)
}

/** The spec: read-only members neither import nor export (the list itself is read at READ_ONLY). */
function mayExport(auth: AuthContext) {
  if (!deviceRules.edit(auth)) throw forbidden('NO_PERMISSION')
}

/** 设备列表.xlsx of every registered device matching the list's filters, in the list's order. */
export async function exportDeviceList(ctx: AppContext, auth: AuthContext, q: DeviceListQuery) {
  mayExport(auth)
  const batches = reading(ctx, (size) =>
    registeredBatches(ctx.db, auth, q, bands, ctx.clock.now(), size, ctx.database.kind === 'pglite'),
  )
  return streamXlsx(
    ctx,
    EXPORT_FILE_NAMES[ExportType.DEVICES],
    '设备列表',
    deviceColumns(deviceRules.cableVoltage(auth)),
    batches,
  )
}

/** The date range of an export: default the last 7 days up to today. */
function rangeOf(ctx: AppContext, q: DataExportQuery) {
  const now = ctx.clock.now()
  const start = q.start_time ?? formatDate(new Date(now.getTime() - DEVICE_EXPORT_DAYS * 86_400_000))
  const end = q.end_time ?? formatDate(now)
  if (start > end) throw invalid('DATE_ORDER')
  return { start, end }
}

/** GET /api/v1/device/data-export: one of the four exports over a date range. */
export async function dataExport(ctx: AppContext, auth: AuthContext, q: DataExportQuery) {
  mayExport(auth)
  const { start, end } = rangeOf(ctx, q)
  const name = EXPORT_FILE_NAMES[q.export_type]
  switch (q.export_type) {
    case ExportType.DEVICES:
      // Devices registered on those dates, with the list's columns.
      return exportDeviceList(ctx, auth, deviceListQuery.parse({ start_time: start, end_time: end }))
    case ExportType.INSPECTIONS:
      return streamXlsx(
        ctx,
        name,
        '巡检记录',
        inspectionColumns,
        reading(ctx, (size) => inspectionBatches(ctx.db, auth, start, end, size)),
      )
    case ExportType.SELF_CHECKS:
      return streamXlsx(
        ctx,
        name,
        '自检记录',
        detectionColumns,
        reading(ctx, (size) => detectionBatches(ctx.db, auth, start, end, size)),
      )
    case ExportType.RESCUES:
      return streamXlsx(
        ctx,
        name,
        '急救记录',
        rescueColumns,
        reading(ctx, (size) => rescueBatches(ctx.db, auth, start, end, size)),
      )
  }
}

// ---------------------------------------------------------------------------------------------
// The factory import

/** One data row of an import file: its row number in the sheet and its three cells as text. */
type ImportRow = { row: number; device_sn: string; model: string; fw_version: string }

const SHEET_REFUSALS = {
  template: 'IMPORT_TEMPLATE_INVALID',
  too_many: 'IMPORT_TOO_MANY_ROWS',
  empty: 'IMPORT_EMPTY',
} as const

/** The upload's rows (blank ones null), or the reason it is not a filled-in template. */
async function readImportFile(data: Uint8Array): Promise<(ImportRow | null)[]> {
  try {
    const rows = await readTemplateSheet(data, TEMPLATE_HEADERS, IMPORT_MAX_ROWS)
    return rows.map(
      (r) => r && { row: r.row, device_sn: r.cells[0], model: r.cells[1], fw_version: r.cells[2] },
    )
  } catch (err) {
    if (err instanceof SheetReadError) throw invalid(SHEET_REFUSALS[err.reason], { max: IMPORT_MAX_ROWS })
    throw err
  }
}

/**
 * The reasons each row is refused, in the spec's order of checks (serial, model, firmware). A
 * serial must not be a live device's (`taken`) nor a live rescue cabinet's (`cabinetSerials`).
 */
function rowProblems(
  rows: ImportRow[],
  taken: Set<string>,
  cabinetSerials: Set<string>,
): Map<number, { key: MessageKey; params?: object }[]> {
  const problems = new Map<number, { key: MessageKey; params?: object }[]>()
  const add = (r: ImportRow, key: MessageKey, params?: object) => {
    const list = problems.get(r.row) ?? []
    list.push({ key, params })
    problems.set(r.row, list)
  }
  const firstRowOf = new Map<string, number>()
  for (const r of rows) {
    if (!r.device_sn) add(r, 'IMPORT_SN_REQUIRED')
    else if (!DEVICE_SN.test(r.device_sn)) add(r, 'IMPORT_SN_FORMAT')
    else if (firstRowOf.has(r.device_sn)) add(r, 'IMPORT_SN_DUPLICATE', { row: firstRowOf.get(r.device_sn) })
    else if (taken.has(r.device_sn)) add(r, 'IMPORT_SN_TAKEN')
    else if (cabinetSerials.has(r.device_sn)) add(r, 'DEVICE_SN_USED_BY_CABINET', { sn: r.device_sn })
    if (r.device_sn && !firstRowOf.has(r.device_sn)) firstRowOf.set(r.device_sn, r.row)
    if (r.model && DEVICE_SN.test(r.device_sn)) {
      const derived = modelOfSerial(r.device_sn)
      if (!derived) add(r, 'IMPORT_MODEL_UNKNOWN')
      else if (r.model.toUpperCase() !== derived) add(r, 'IMPORT_MODEL_MISMATCH', { model: derived })
    }
    if (r.fw_version.length > 32) add(r, 'IMPORT_FW_TOO_LONG')
  }
  return problems
}

/**
 * 导入失败文件.xlsx: every row of the upload where it was, with 失败原因 beside the refused ones;
 * its first columns are the template's, so the fixed file can be imported again as it is.
 */
async function failureFile(
  rows: (ImportRow | null)[],
  problems: Map<number, { key: MessageKey; params?: object }[]>,
  lang: Lang,
) {
  const reason = (r: ImportRow) =>
    (problems.get(r.row) ?? [])
      .map((p) => translate(p.key, lang, p.params as Record<string, string | number>))
      .join('；')
  const body = rows.map((r) =>
    r ? [r.device_sn, r.model, r.fw_version, reason(r)].map((v) => v || null) : [],
  )
  return xlsxBuffer('导入失败', [...TEMPLATE_HEADERS, '失败原因'], body, [24, 12, 16, 48])
}

/**
 * The factory import: every row valid (serial format, unique in the file and among live
 * devices and rescue cabinets, model empty or the serial's, firmware optional) or nothing is
 * written. The devices get their own secrets; they go to the picked organisation of the scope,
 * or the member's own.
 */
export async function importDevices(
  ctx: AppContext,
  auth: AuthContext,
  form: { import_file: UploadedPart; agency_id?: number },
  lang: Lang,
): Promise<ImportResult> {
  if (!deviceRules.import(auth)) throw forbidden('NO_PERMISSION')
  const agency = await agencyInScope(ctx, auth, form.agency_id ?? auth.agency_id)
  if (!agency) throw invalid('DEVICE_AGENCY_REQUIRED')
  await checkUpload(form.import_file.filename, form.import_file.data, 'xlsx')
  const sheetRows = await readImportFile(form.import_file.data)
  const rows = sheetRows.filter((r): r is ImportRow => r !== null)
  // A concurrent import may take a serial between the check and the insert: the unique index
  // refuses it, and one more pass reports it as a row of the failure file.
  const serials = [...new Set(rows.map((r) => r.device_sn).filter((sn) => DEVICE_SN.test(sn)))]
  for (let attempt = 0; ; attempt++) {
    try {
      const outcome = await ctx.db.transaction(async (tx) => {
        // The serials' lock first (in cabinetSerialsIn): no cabinet takes a serial before this commits.
        const cabinetSerials = await cabinetSerialsIn(tx, serials)
        const problems = rowProblems(rows, await takenSerials(tx, serials), cabinetSerials)
        // Refused: nothing was written; the failure file is built after the transaction.
        if (problems.size > 0) return { problems }
        // Several inserts: one statement's parameters stay under PostgreSQL's limit.
        for (let i = 0; i < rows.length; i += 1000) {
          await createFactoryDevices(
            tx,
            ctx,
            auth.member_id,
            rows.slice(i, i + 1000).map((r) => ({
              device_sn: r.device_sn,
              fw_version: r.fw_version || null,
              agency_id: agency.id,
            })),
          )
        }
        return { problems: null }
      })
      if (outcome.problems) {
        const file = await failureFile(sheetRows, outcome.problems, lang)
        throw new AppError(Code.INVALID, 'IMPORT_FAILED', {}, { file_base64: file.toString('base64') })
      }
      return { count: rows.length, agency_id: agency.id, agency_name: agency.name }
    } catch (err) {
      if (attempt === 0 && isUniqueViolation(err)) continue
      throw err
    }
  }
}
