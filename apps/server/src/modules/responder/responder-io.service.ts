import { Code, type Lang, type MessageKey, translate } from '@aed/contracts'
import type { UploadedPart } from '@aed/contracts/files'
import { isRegionCode } from '@aed/contracts/regions'
import {
  RESPONDER_IMPORT_MAX_ROWS,
  RESPONDER_PHONE,
  RESPONDER_TEMPLATE_HEADERS,
  type ResponderImportResult,
} from '@aed/contracts/responder'
import { ageOn } from '@aed/contracts/responder-rules'
import type { AppContext } from '../../context.ts'
import { isUniqueViolation } from '../../db/sql.ts'
import { AppError, invalid } from '../../lib/errors.ts'
import { readTemplateSheet, SheetReadError } from '../../lib/xlsx-reader.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import type { StorageProvider } from '../../providers/storage/storage-provider.ts'
import { XLSX_TYPE, xlsxBuffer } from '../../providers/storage/xlsx.ts'
import { agencyInScope } from '../agency/agency.service.ts'
import { checkUpload } from '../files/files.service.ts'
import { accountOfPhone, createAccount, updateAccountProfile } from '../member/member.service.ts'
import * as repo from './responder.repository.ts'
import { todayOf } from './responder.service.ts'

/** Where the responder import template is kept in storage. */
export const RESPONDER_TEMPLATE_KEY = 'templates/responder-import-template.xlsx'

const HELP: [string, string][] = [
  ['姓名', '必填，最多50个字符'],
  [
    '电话',
    '必填，11位手机号（1开头，第二位为3、4、5、7或8），每人一行，不能重复；已有账号的手机号沿用该账号',
  ],
  ['性别', '必填，男或女'],
  ['出生日期', '必填，YYYY-MM-DD，例如1990-05-01'],
  ['邮箱', '选填'],
  ['常驻地址', '必填，常驻地址的文字'],
  ['具体位置', '选填，楼栋、楼层、房间'],
  ['经度', '必填，常驻地址的经度（GCJ-02，即高德、腾讯地图坐标），例如120.15507'],
  ['纬度', '必填，常驻地址的纬度（GCJ-02），例如30.27408'],
  ['区域编码', '选填，常驻地址所在区县的6位行政区划代码，例如330106'],
  ['急救资质', '必填，专业或非专业'],
  ['证书编号', '专业必填，不能与本机构范围内已登记的证书重复'],
  ['证书有效期', '专业必填，YYYY-MM-DD；证书图片请导入后在编辑中上传'],
  ['绑定机构设备', '选填，是或否，默认否'],
]

/** Builds the template: one sheet to fill in, one with the rules. */
export async function buildResponderTemplate(): Promise<Buffer> {
  const { default: ExcelJS } = await import('exceljs')
  const wb = new ExcelJS.Workbook()
  wb.creator = 'AED Cloud'
  const sheet = wb.addWorksheet('急救人员导入')
  sheet.columns = RESPONDER_TEMPLATE_HEADERS.map((header) => ({ header, width: 16 }))
  sheet.getRow(1).font = { bold: true }
  // Phones, dates and codes are text: a number format would turn them into something else.
  for (let c = 1; c <= RESPONDER_TEMPLATE_HEADERS.length; c++) sheet.getColumn(c).numFmt = '@'
  const help = wb.addWorksheet('填写说明')
  help.columns = [{ width: 16 }, { width: 90 }]
  help.addRows([['列', '说明'], ...HELP])
  help.getRow(1).font = { bold: true }
  return Buffer.from(await wb.xlsx.writeBuffer())
}

const made = new WeakMap<StorageProvider, Promise<string>>()

/** The template's URL; written to storage once per process, on the first request that needs it. */
export function responderTemplateUrl(storage: StorageProvider): Promise<string> {
  let url = made.get(storage)
  if (!url) {
    url = buildResponderTemplate().then(
      async (body) => (await storage.put(RESPONDER_TEMPLATE_KEY, body, XLSX_TYPE)).url,
    )
    url.catch(() => made.delete(storage))
    made.set(storage, url)
  }
  return url
}

export async function uploadInfo(ctx: AppContext) {
  return { template_url: await responderTemplateUrl(ctx.storage) }
}

type Problem = { key: MessageKey; params?: Record<string, string | number> }

/** A sheet row read into the register's fields; `problems` lists why it cannot be imported. */
type ImportRow = {
  row: number
  cells: string[]
  phone: string
  name: string
  gender: 1 | 2
  birth: string
  email: string | null
  location: string
  location_desc: string | null
  lon: number
  lat: number
  address_code: string | null
  aid_aptitude: 0 | 1
  certificate_num: string | null
  certificate_expire: string | null
  status: 0 | 1
  problems: Problem[]
}

const DATE = /^\d{4}-\d{2}-\d{2}$/
const validDate = (s: string) =>
  DATE.test(s) &&
  !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) &&
  new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s
const EMAIL = /^\w+([-+.]\w+)*@\w+([-.]\w+)*\.\w+([-.]\w+)*$/

/** One row's own checks (no database): required cells, formats, a professional's certificate. */
function readRow(row: number, cells: string[], today: string): ImportRow {
  const [name, phone, gender, birth, email, location, desc, lon, lat, code, aptitude, num, expire, bind] =
    cells
  const problems: Problem[] = []
  const add = (key: MessageKey, params?: Record<string, string | number>) => problems.push({ key, params })
  if (!phone) add('CONTACT_PHONE_REQUIRED')
  else if (phone.length !== 11) add('CONTACT_PHONE_WRONG')
  else if (!RESPONDER_PHONE.test(phone)) add('RESPONDER_PHONE_PATTERN')
  if (!name) add('RESPONDER_NAME_REQUIRED')
  else if (name.length > 50) add('TEXT_TOO_LONG')
  if (!birth) add('BIRTH_REQUIRED')
  else if (!validDate(birth)) add('RESPONDER_IMPORT_DATE', { field: '出生日期' })
  else if (birth > today || (ageOn(birth, today) ?? 999) > 120) add('BIRTH_INVALID')
  if (!gender) add('GENDER_REQUIRED')
  else if (gender !== '男' && gender !== '女') add('RESPONDER_IMPORT_GENDER')
  const x = Number(lon)
  const y = Number(lat)
  if (!lon || !lat || !Number.isFinite(x) || !Number.isFinite(y) || Math.abs(x) > 180 || Math.abs(y) > 90)
    add('RESPONDER_IMPORT_POINT')
  if (!location) add('RESIDENCE_PICK')
  else if (location.length > 200 || desc.length > 200) add('TEXT_TOO_LONG')
  if (code && !isRegionCode(code)) add('ADDRESS_PICK')
  if (email && (email.length > 100 || !EMAIL.test(email))) add('EMAIL_WRONG')
  if (!aptitude) add('APTITUDE_REQUIRED')
  else if (aptitude !== '专业' && aptitude !== '非专业') add('RESPONDER_IMPORT_APTITUDE')
  const pro = aptitude === '专业'
  if (pro && !num) add('CERT_NUM_REQUIRED')
  else if (num.length > 50) add('TEXT_TOO_LONG')
  if (pro && !expire) add('CERT_EXPIRE_REQUIRED')
  else if (pro && !validDate(expire)) add('RESPONDER_IMPORT_DATE', { field: '证书有效期' })
  if (bind && bind !== '是' && bind !== '否') add('RESPONDER_IMPORT_BIND')
  return {
    row,
    cells,
    phone,
    name,
    gender: gender === '女' ? 2 : 1,
    birth,
    email: email || null,
    location,
    location_desc: desc || null,
    lon: x,
    lat: y,
    address_code: code || null,
    aid_aptitude: pro ? 1 : 0,
    certificate_num: pro ? num : null,
    certificate_expire: pro ? expire : null,
    status: bind === '是' ? 1 : 0,
    problems,
  }
}

const SHEET_REFUSALS = {
  template: 'IMPORT_TEMPLATE_INVALID',
  too_many: 'RESPONDER_IMPORT_TOO_MANY',
  empty: 'RESPONDER_IMPORT_EMPTY',
} as const

/** 导入失败文件.xlsx: every row where it was, with 失败原因 beside the refused ones. */
async function failureFile(rows: (ImportRow | null)[], lang: Lang) {
  const reason = (r: ImportRow) => r.problems.map((p) => translate(p.key, lang, p.params)).join('；')
  const body = rows.map((r) => (r ? [...r.cells.map((v) => v || null), reason(r) || null] : []))
  return xlsxBuffer('导入失败', [...RESPONDER_TEMPLATE_HEADERS, '失败原因'], body, [
    ...RESPONDER_TEMPLATE_HEADERS.map(() => 14),
    48,
  ])
}

/** Checks across rows and against the database: repeats in the file, phones and certificates taken. */
async function crossChecks(tx: Parameters<typeof repo.phonesInUse>[0], auth: AuthContext, rows: ImportRow[]) {
  const phones = [...new Set(rows.map((r) => r.phone).filter((p) => RESPONDER_PHONE.test(p)))]
  const nums = [...new Set(rows.flatMap((r) => (r.certificate_num ? [r.certificate_num] : [])))]
  const inUse = await repo.phonesInUse(tx, auth, phones)
  const taken = await repo.takenCertificates(tx, auth, nums)
  const firstPhone = new Map<string, number>()
  const firstNum = new Map<string, number>()
  for (const r of rows) {
    const add = (key: MessageKey, params?: Record<string, string | number>) =>
      r.problems.push({ key, params })
    if (r.phone) {
      const first = firstPhone.get(r.phone)
      if (first !== undefined) add('RESPONDER_IMPORT_PHONE_DUPLICATE', { row: first })
      else if (inUse.registered.has(r.phone)) add('RESPONDER_EXISTS')
      else if (inUse.elsewhere.has(r.phone)) add('RESPONDER_ACCOUNT_ELSEWHERE')
      if (first === undefined) firstPhone.set(r.phone, r.row)
    }
    if (r.certificate_num) {
      const first = firstNum.get(r.certificate_num)
      if (first !== undefined) add('RESPONDER_IMPORT_CERT_DUPLICATE', { row: first })
      else if (taken.has(r.certificate_num)) add('CERT_NUM_TAKEN')
      if (first === undefined) firstNum.set(r.certificate_num, r.row)
    }
  }
}

/**
 * The responder import: every row valid or nothing is written. People go to the picked
 * organisation of the scope (or the member's own); a known phone's account is reused and its
 * profile written from the sheet, as the dialog does.
 */
export async function importResponders(
  ctx: AppContext,
  auth: AuthContext,
  form: { import_file: UploadedPart; agency_id?: number },
  lang: Lang,
): Promise<ResponderImportResult> {
  const agency = await agencyInScope(ctx, auth, form.agency_id ?? auth.agency_id)
  if (!agency) throw invalid('DEVICE_AGENCY_REQUIRED')
  await checkUpload(form.import_file.filename, form.import_file.data, 'xlsx')
  let sheet: ({ row: number; cells: string[] } | null)[]
  try {
    sheet = await readTemplateSheet(
      form.import_file.data,
      RESPONDER_TEMPLATE_HEADERS,
      RESPONDER_IMPORT_MAX_ROWS,
    )
  } catch (err) {
    if (err instanceof SheetReadError)
      throw invalid(SHEET_REFUSALS[err.reason], { max: RESPONDER_IMPORT_MAX_ROWS })
    throw err
  }
  const today = todayOf(ctx)
  const now = ctx.clock.now()
  const by = { operator_id: auth.member_id, operator: auth.user_name }
  // A concurrent registration may take a phone between the check and the insert: the unique
  // index refuses it, and one more pass reports it as a row of the failure file.
  for (let attempt = 0; ; attempt++) {
    const all = sheet.map((s) => s && readRow(s.row, s.cells, today))
    const rows = all.filter((r): r is ImportRow => r !== null)
    try {
      const refused = await ctx.db.transaction(async (tx) => {
        await crossChecks(tx, auth, rows)
        if (rows.some((r) => r.problems.length > 0)) return true
        for (const r of rows) {
          const profile = {
            name: r.name,
            email: r.email,
            gender: r.gender,
            birth: r.birth,
            location: r.location,
            location_desc: r.location_desc,
            address_code: r.address_code,
            lat: r.lat,
            lon: r.lon,
          }
          const existing = await accountOfPhone(ctx, tx, auth, r.phone)
          if (existing) await updateAccountProfile(tx, auth, existing.id, profile)
          const accountId = existing ? existing.id : await createAccount(tx, auth, r.phone, profile)
          const id = await repo.insertResponder(tx, {
            account_id: accountId,
            agency_id: agency.id,
            aid_aptitude: r.aid_aptitude,
            certificate_num: r.certificate_num,
            certificate_expire: r.certificate_expire,
            status: r.status,
            creator: auth.member_id,
            updator: auth.member_id,
          })
          await repo.insertChanges(
            tx,
            [{ responder_id: id, kind: 'imported', detail: { aid_aptitude: r.aid_aptitude }, ...by }],
            now,
          )
        }
        return false
      })
      if (refused) {
        const file = await failureFile(all, lang)
        throw new AppError(Code.INVALID, 'IMPORT_FAILED', {}, { file_base64: file.toString('base64') })
      }
      return {
        count: rows.length,
        professional: rows.filter((r) => r.aid_aptitude === 1).length,
        agency_id: agency.id,
        agency_name: agency.name,
      }
    } catch (err) {
      if (attempt === 0 && isUniqueViolation(err)) continue
      throw err
    }
  }
}
