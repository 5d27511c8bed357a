import { Code, type Lang, type MessageKey, translate } from '@aed/contracts'
import {
  CABINET_IMPORT_MAX_ROWS,
  CABINET_SN,
  CABINET_TEMPLATE_HEADERS,
  type CabinetImportResult,
  CabinetUpdateType,
} from '@aed/contracts/cabinet'
import { DEVICE_SN, modelOfSerial } from '@aed/contracts/device'
import type { UploadedPart } from '@aed/contracts/files'
import type { AppContext } from '../../context.ts'
import { isUniqueViolation } from '../../db/sql.ts'
import { AppError, forbidden, invalid } from '../../lib/errors.ts'
import { newDeviceSecret } from '../../lib/sealed.ts'
import { readTemplateSheet, SheetReadError } from '../../lib/xlsx-reader.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import type { StorageProvider } from '../../providers/storage/storage-provider.ts'
import { XLSX_TYPE, xlsxBuffer } from '../../providers/storage/xlsx.ts'
import { agencyInScope } from '../agency/agency.service.ts'
import { checkUpload } from '../files/files.service.ts'
import { aedSerialsIn, takenCabinetSerials } from '../serial/serial.service.ts'
import { cabinetRules } from './cabinet.presenter.ts'
import * as repo from './cabinet.repository.ts'

// ---------------------------------------------------------------------------------------------
// The template

/** Where the cabinet import template is kept in storage. */
export const CABINET_TEMPLATE_KEY = 'templates/cabinet-import-template.xlsx'

/** Builds the template: one sheet to fill in, one with the rules. */
export async function buildCabinetTemplate(): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs')
  const wb = new ExcelJS.Workbook()
  wb.creator = 'AED Cloud'
  const sheet = wb.addWorksheet('救护箱导入')
  sheet.columns = CABINET_TEMPLATE_HEADERS.map((header) => ({ header, width: 24 }))
  sheet.getRow(1).font = { bold: true }
  // Numbers and serials are text: a leading zero or a long digit string must stay as written.
  for (let c = 1; c <= CABINET_TEMPLATE_HEADERS.length; c++) sheet.getColumn(c).numFmt = '@'
  const help = wb.addWorksheet('填写说明')
  help.columns = [{ width: 16 }, { width: 70 }]
  help.addRows([
    ['列', '说明'],
    ['救护箱编号', '必填，6-32位字母或数字，每行一个救护箱，不能重复'],
    ['绑定AED', '选填，本机构范围内的AED设备SN（出厂或已注册），未绑定其他救护箱，每台AED只能填一次'],
  ])
  help.getRow(1).font = { bold: true }
  return Buffer.from(await wb.xlsx.writeBuffer())
}

const made = new WeakMap<StorageProvider, Promise<string>>()

/** The template's URL; written to storage once per process, on the first request that needs it. */
export function cabinetTemplateUrl(storage: StorageProvider): Promise<string> {
  let url = made.get(storage)
  if (!url) {
    url = buildCabinetTemplate().then(
      async (body) => (await storage.put(CABINET_TEMPLATE_KEY, body, XLSX_TYPE)).url,
    )
    url.catch(() => made.delete(storage))
    made.set(storage, url)
  }
  return url
}

export async function uploadInfo(ctx: AppContext) {
  return { template_url: await cabinetTemplateUrl(ctx.storage) }
}

// ---------------------------------------------------------------------------------------------
// The import

type ImportRow = { row: number; cabinet_sn: string; device_sn: string }
type Problems = Map<number, { key: MessageKey; params?: Record<string, string | number> }[]>

const SHEET_REFUSALS = {
  template: 'IMPORT_TEMPLATE_INVALID',
  too_many: 'CABINET_IMPORT_TOO_MANY',
  empty: 'CABINET_IMPORT_EMPTY',
} as const

async function readImportFile(data: Uint8Array): Promise<(ImportRow | null)[]> {
  try {
    const rows = await readTemplateSheet(data, CABINET_TEMPLATE_HEADERS, CABINET_IMPORT_MAX_ROWS)
    return rows.map((r) => r && { row: r.row, cabinet_sn: r.cells[0], device_sn: r.cells[1] })
  } catch (err) {
    if (err instanceof SheetReadError)
      throw invalid(SHEET_REFUSALS[err.reason], { max: CABINET_IMPORT_MAX_ROWS })
    throw err
  }
}

/**
 * The reasons each row is refused: the number (given, 6-32 letters or digits, once in the file,
 * not a live cabinet's nor a live AED's), then the optional AED (a serial, once in the file, a
 * live device of the chosen organisation's subtree, not in a cabinet).
 */
function rowProblems(
  rows: ImportRow[],
  taken: Set<string>,
  aedSerials: Set<string>,
  devices: Map<string, repo.BindableDevice>,
): Problems {
  const problems: Problems = new Map()
  const add = (r: ImportRow, key: MessageKey, params?: Record<string, string | number>) => {
    const list = problems.get(r.row) ?? []
    list.push({ key, params })
    problems.set(r.row, list)
  }
  const firstCabinet = new Map<string, number>()
  const firstDevice = new Map<string, number>()
  for (const r of rows) {
    if (!r.cabinet_sn) add(r, 'CABINET_SN_REQUIRED')
    else if (!CABINET_SN.test(r.cabinet_sn)) add(r, 'CABINET_SN_FORMAT')
    else if (firstCabinet.has(r.cabinet_sn))
      add(r, 'CABINET_IMPORT_SN_DUPLICATE', { row: firstCabinet.get(r.cabinet_sn) ?? 0 })
    else if (taken.has(r.cabinet_sn)) add(r, 'CABINET_SN_TAKEN')
    else if (aedSerials.has(r.cabinet_sn)) add(r, 'CABINET_SN_USED_BY_AED', { sn: r.cabinet_sn })
    if (r.cabinet_sn && !firstCabinet.has(r.cabinet_sn)) firstCabinet.set(r.cabinet_sn, r.row)
    if (!r.device_sn) continue
    const device = devices.get(r.device_sn)
    if (!DEVICE_SN.test(r.device_sn)) add(r, 'CABINET_BIND_SN_INVALID')
    else if (firstDevice.has(r.device_sn))
      add(r, 'CABINET_IMPORT_AED_DUPLICATE', { row: firstDevice.get(r.device_sn) ?? 0 })
    else if (!device) add(r, 'CABINET_IMPORT_AED_NOT_FOUND')
    else if (device.cabinet_id !== null) add(r, 'CABINET_IMPORT_AED_BOUND')
    if (!firstDevice.has(r.device_sn)) firstDevice.set(r.device_sn, r.row)
  }
  return problems
}

/** 导入失败文件.xlsx: every row where it was, with 失败原因 beside the refused ones. */
async function failureFile(rows: (ImportRow | null)[], problems: Problems, lang: Lang) {
  const reason = (r: ImportRow) =>
    (problems.get(r.row) ?? []).map((p) => translate(p.key, lang, p.params)).join('；')
  const body = rows.map((r) => (r ? [r.cabinet_sn, r.device_sn, reason(r)].map((v) => v || null) : []))
  return xlsxBuffer('导入失败', [...CABINET_TEMPLATE_HEADERS, '失败原因'], body, [24, 24, 48])
}

/**
 * The cabinet import: every row valid or nothing is written. The cabinets get their own secrets
 * and go to the picked organisation of the scope (system organisations and general agents), or
 * the member's own; a row with an AED binds it, with its bind record.
 */
export async function importCabinets(
  ctx: AppContext,
  auth: AuthContext,
  form: { import_file: UploadedPart; agency_id?: number },
  lang: Lang,
): Promise<CabinetImportResult> {
  if (!cabinetRules.import(auth)) throw forbidden('NO_PERMISSION')
  const agency = await agencyInScope(ctx, auth, form.agency_id ?? auth.agency_id)
  if (!agency) throw invalid('DEVICE_AGENCY_REQUIRED')
  await checkUpload(form.import_file.filename, form.import_file.data, 'xlsx')
  const sheetRows = await readImportFile(form.import_file.data)
  const rows = sheetRows.filter((r): r is ImportRow => r !== null)
  const serials = [...new Set(rows.map((r) => r.cabinet_sn).filter((sn) => CABINET_SN.test(sn)))]
  const aeds = [...new Set(rows.map((r) => r.device_sn).filter((sn) => DEVICE_SN.test(sn)))]
  // A concurrent import or bind may take a number or an AED between the check and the insert:
  // the unique indexes refuse it, and one more pass reports it as a row of the failure file.
  for (let attempt = 0; ; attempt++) {
    try {
      const outcome = await ctx.db.transaction(async (tx) => {
        // The serials' lock first (in aedSerialsIn): no AED takes a number before this commits.
        const aedSerials = await aedSerialsIn(tx, serials)
        const taken = await takenCabinetSerials(tx, serials)
        // The AEDs must be of the chosen organisation's subtree (part of the caller's scope).
        const found = new Map((await repo.bindableDevices(tx, agency, aeds)).map((d) => [d.device_sn, d]))
        const problems = rowProblems(rows, taken, aedSerials, found)
        if (problems.size > 0) return { problems, bound: 0 }
        let bound = 0
        for (let i = 0; i < rows.length; i += 1000) {
          const slice = rows.slice(i, i + 1000)
          const ids = await repo.insertCabinets(
            tx,
            slice.map((r) => ({
              cabinet_sn: r.cabinet_sn,
              agency_id: agency.id,
              secret_enc: ctx.sealer.seal(newDeviceSecret()),
              device_id: r.device_sn ? (found.get(r.device_sn)?.id ?? null) : null,
              creator: auth.member_id,
            })),
          )
          const binds = slice.flatMap((r, k) => {
            const d = r.device_sn ? found.get(r.device_sn) : undefined
            return d
              ? [
                  {
                    cabinet_id: ids[k],
                    action: CabinetUpdateType.BIND,
                    device_id: d.id,
                    device_sn: d.device_sn,
                    device_model: modelOfSerial(d.device_sn),
                    agency_id: agency.id,
                    agency_name: agency.name,
                    operator_id: auth.member_id,
                    operator: auth.user_name,
                  },
                ]
              : []
          })
          await repo.insertBinds(tx, binds, ctx.clock.now())
          bound += binds.length
        }
        return { problems: null, bound }
      })
      if (outcome.problems) {
        const file = await failureFile(sheetRows, outcome.problems, lang)
        throw new AppError(Code.INVALID, 'IMPORT_FAILED', {}, { file_base64: file.toString('base64') })
      }
      return { count: rows.length, bound: outcome.bound, agency_id: agency.id, agency_name: agency.name }
    } catch (err) {
      if (attempt === 0 && isUniqueViolation(err)) continue
      throw err
    }
  }
}
