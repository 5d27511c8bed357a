import { type Lang, translate } from '@aed/contracts'
import type { ThirdPartyAed, ThirdPartyListQuery, Volunteer, VolunteerListQuery } from '@aed/contracts/review'
import type { AppContext } from '../../context.ts'
import { invalid } from '../../lib/errors.ts'
import { formatDateTime } from '../../lib/time.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { xlsxBuffer } from '../../providers/storage/xlsx.ts'
import { presentThirdParty, presentVolunteer } from './review.presenter.ts'
import * as repo from './review.repository.ts'

/** The largest export: a city's whole review history fits. */
export const REVIEW_EXPORT_MAX = 50_000

/** The rows of an export, or a refusal when there are more than REVIEW_EXPORT_MAX (never a cut file). */
function whole<T>(rows: T[]): T[] {
  if (rows.length > REVIEW_EXPORT_MAX) throw invalid('REVIEW_EXPORT_TOO_LARGE', { max: REVIEW_EXPORT_MAX })
  return rows
}

type Column<T> = [string, (r: T) => string | number | null]

const time = (iso: string | null) => (iso ? formatDateTime(new Date(iso)) : null)

/** The sheet as base64 (the spec's data.file_base64), phones masked as in the list. */
async function sheet<T>(title: string, cols: Column<T>[], rows: T[]) {
  const file = await xlsxBuffer(
    title,
    cols.map(([h]) => h),
    rows.map((r) => cols.map(([, v]) => v(r))),
    cols.map(([h]) => Math.max(12, h.length * 2 + 4)),
  )
  return { file_base64: file.toString('base64'), count: rows.length }
}

function volunteerColumns(lang: Lang, status: number): Column<Volunteer>[] {
  const en = lang === 'en-US'
  const cols: Column<Volunteer>[] = [
    [en ? 'Name' : '姓名', (r) => r.submitter_name],
    [en ? 'Guarded area' : '守护区域', (r) => r.guard_area],
    [en ? 'Phone' : '手机号', (r) => r.submitter_phone],
    [en ? 'Certificate' : '是否持有证书', (r) => (r.has_cert ? (en ? 'Yes' : '是') : en ? 'No' : '否')],
    [en ? 'Certificate image' : '证书图片', (r) => r.cert_img],
    [en ? 'Submitted' : '提交时间', (r) => time(r.create_time)],
  ]
  if (status !== 1) cols.push([en ? 'Reviewed' : '审核时间', (r) => time(r.audit_time)])
  if (status === 0) cols.push([en ? 'Remark' : '备注', (r) => r.rejected_reason])
  return cols
}

function thirdPartyColumns(lang: Lang, status: number): Column<ThirdPartyAed>[] {
  const en = lang === 'en-US'
  const cols: Column<ThirdPartyAed>[] = [
    [en ? 'Brand' : '品牌', (r) => r.brand],
    [en ? 'Install address' : '安装地址', (r) => r.location],
    [en ? 'Detailed location' : '详细位置', (r) => r.location_desc],
    [en ? 'Longitude' : '经度', (r) => r.lon],
    [en ? 'Latitude' : '纬度', (r) => r.lat],
    [en ? 'Site photos' : '现场图片', (r) => r.install_imgs.join('\n') || null],
    [en ? 'Submitter' : '提交人', (r) => r.submitter_name],
    [en ? 'Phone' : '手机号', (r) => r.submitter_phone],
    [en ? 'Submitted' : '提交时间', (r) => time(r.create_time)],
  ]
  if (status !== 1) cols.push([en ? 'Reviewed' : '审核时间', (r) => time(r.audit_time)])
  if (status === 0) cols.push([en ? 'Remark' : '备注', (r) => r.rejected_reason])
  return cols
}

/** 公共志愿者.xlsx: every volunteer of the tab the filters match. */
export async function exportVolunteers(
  ctx: AppContext,
  auth: AuthContext,
  q: VolunteerListQuery,
  lang: Lang,
) {
  const rows = whole(await repo.volunteersAll(ctx.db, q, REVIEW_EXPORT_MAX + 1))
  return sheet(
    translate('VOLUNTEER_SHEET', lang),
    volunteerColumns(lang, q.audit_status),
    rows.map((r) => presentVolunteer(r, auth, { masked: true })),
  )
}

/** 公共AED列表.xlsx: every third-party AED of the tab the filters match. */
export async function exportThirdParty(
  ctx: AppContext,
  auth: AuthContext,
  q: ThirdPartyListQuery,
  lang: Lang,
) {
  const rows = whole(await repo.thirdPartyAll(ctx.db, q, REVIEW_EXPORT_MAX + 1))
  return sheet(
    translate('THIRD_PARTY_SHEET', lang),
    thirdPartyColumns(lang, q.audit_status),
    rows.map((r) => presentThirdParty(r, auth, { masked: true })),
  )
}
