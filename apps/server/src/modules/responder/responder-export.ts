import { type Lang, translate } from '@aed/contracts'
import { dictLabel } from '@aed/contracts/constants'
import { regionFullName } from '@aed/contracts/regions'
import { RESPONDER_EXPORT_MAX, type Responder, type ResponderListQuery } from '@aed/contracts/responder'
import type { AppContext } from '../../context.ts'
import { invalid } from '../../lib/errors.ts'
import { formatDateTime } from '../../lib/time.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { xlsxBuffer } from '../../providers/storage/xlsx.ts'
import { presentResponder } from './responder.presenter.ts'
import * as repo from './responder.repository.ts'

const DISPATCH_LABELS: Record<Responder['dispatch_state'], [string, string]> = {
  ready: ['可派单', 'Ready'],
  paused: ['已暂停', 'Paused'],
  certificate_expired: ['证书过期', 'Certificate expired'],
}

/** The export's columns: the detail panel's rows, then the dispatch state and organisation. */
function columns(lang: Lang): [string, (r: Responder) => string | number | null][] {
  const en = lang === 'en-US'
  const time = (iso: string) => formatDateTime(new Date(iso))
  const yes = (v: number) => (en ? (v ? 'Yes' : 'No') : v ? '是' : '否')
  return [
    [en ? 'Name' : '姓名', (r) => r.name],
    [en ? 'Gender' : '性别', (r) => (r.gender ? dictLabel('gender', r.gender, lang) : null)],
    [en ? 'Age' : '年龄', (r) => r.age],
    [en ? 'Birth date' : '出生日期', (r) => r.birth],
    [en ? 'Phone' : '电话', (r) => r.phone],
    [en ? 'Email' : '邮箱', (r) => r.email],
    [
      en ? 'Resident address' : '常驻地址',
      (r) => [r.location, r.location_desc].filter(Boolean).join(' ') || null,
    ],
    [en ? 'Qualification' : '急救资质', (r) => dictLabel('aid_aptitude', r.aid_aptitude, lang)],
    [en ? 'Certificate number' : '证书编号', (r) => r.certificate_num],
    [en ? 'Certificate expiry' : '证书有效期', (r) => r.certificate_expire],
    [
      en ? 'Certificate status' : '证书状态',
      (r) =>
        r.certificate_status === null ? '-' : dictLabel('certificate_status', r.certificate_status, lang),
    ],
    [en ? 'Responsible region' : '负责区域', (r) => (r.address_code ? regionFullName(r.address_code) : null)],
    [en ? 'Bound devices' : '是否绑定机构设备', (r) => yes(r.status)],
    [en ? 'Dispatch' : '派单状态', (r) => DISPATCH_LABELS[r.dispatch_state][en ? 1 : 0]],
    [en ? 'Pause reason' : '暂停原因', (r) => r.pause_reason],
    [en ? 'Organisation' : '所在机构', (r) => r.agency_name],
    [en ? 'Creator' : '创建人', (r) => r.creator],
    [en ? 'Created' : '创建时间', (r) => time(r.create_time)],
    [en ? 'Updater' : '更新人', (r) => r.updator],
    [en ? 'Updated' : '更新时间', (r) => time(r.update_time)],
  ]
}

/**
 * 急救人员列表.xlsx of every responder the list's filters match, as base64 (the spec's
 * data.file_base64); phones and emails masked as in the list: the file travels further than the
 * page, and the detail shows them whole to those who may see them.
 */
export async function exportResponders(
  ctx: AppContext,
  auth: AuthContext,
  q: ResponderListQuery,
  today: string,
  lang: Lang,
) {
  const total = await repo.countMatching(ctx.db, auth, q, today)
  if (total > RESPONDER_EXPORT_MAX) throw invalid('RESPONDER_EXPORT_TOO_LARGE', { max: RESPONDER_EXPORT_MAX })
  const rows = await repo.listAll(ctx.db, auth, q, today, RESPONDER_EXPORT_MAX)
  const cols = columns(lang)
  const body = rows.map((row) => {
    const r = presentResponder(row, auth, today, { masked: true })
    return cols.map(([, value]) => value(r))
  })
  const file = await xlsxBuffer(
    translate('RESPONDER_SHEET', lang),
    cols.map(([h]) => h),
    body,
    cols.map(([h]) => Math.max(10, h.length * 2 + 4)),
  )
  return { file_base64: file.toString('base64'), count: rows.length }
}
