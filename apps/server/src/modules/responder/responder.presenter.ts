import { can, type Lang, maskEmail, maskPhone, translate } from '@aed/contracts'
import { dictLabel } from '@aed/contracts/constants'
import type { Responder, ResponderChange, ResponderChangeKind } from '@aed/contracts/responder'
import { ageOn, certificateStatus, daysBetween, dispatchState } from '@aed/contracts/responder-rules'
import { formatDateTime } from '../../lib/time.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import type { ResponderRow } from './responder.repository.ts'

/** One responder as anyone allowed to see it sees it, on `today` (age and certificate are derived). */
export function responderObject(
  row: ResponderRow,
  today: string,
  opts: { masked: boolean },
): Omit<Responder, 'can'> {
  const phone = opts.masked ? maskPhone(row.phone)! : row.phone
  const email = opts.masked ? maskEmail(row.email) : row.email
  const professional = row.aid_aptitude === 1 && row.certificate_expire !== null
  return {
    id: row.id,
    name: row.name,
    gender: row.gender,
    birth: row.birth,
    age: ageOn(row.birth, today),
    phone,
    email,
    location: row.location,
    location_desc: row.location_desc,
    address_code: row.address_code,
    lon: row.lon,
    lat: row.lat,
    aid_aptitude: row.aid_aptitude,
    certificate_num: row.certificate_num,
    certificate_expire: row.certificate_expire,
    certificate_img: row.certificate_img,
    certificate_status: certificateStatus(row.aid_aptitude, row.certificate_expire, today),
    certificate_days_left: professional ? daysBetween(today, row.certificate_expire!) : null,
    agency_id: row.agency_id,
    agency_name: row.agency_name,
    status: row.status,
    paused: row.paused,
    pause_reason: row.pause_reason,
    volunteer: row.volunteer,
    dispatch_state: dispatchState(row, today),
    creator: row.creator_name,
    create_time: row.create_time.toISOString(),
    updator: row.updator_name,
    updator_name: row.updator_name,
    update_time: row.update_time.toISOString(),
    account: {
      id: row.account_id,
      name: row.name,
      gender: row.gender,
      birth: row.birth,
      phone,
      email,
      address_code: row.address_code,
      location: row.location,
      location_desc: row.location_desc,
      lon: row.lon,
      lat: row.lat,
    },
  }
}

/** What the signed-in member may do with a responder: edit with aid_man EDIT, delete with ALL. */
export function responderCan(auth: AuthContext): Responder['can'] {
  return { edit: can(auth, 'aid_man', 'EDIT'), delete: can(auth, 'aid_man', 'ALL') }
}

/** What the signed-in member may do from the toolbar: register and import, as the create route's guard. */
export function responderListCan(auth: AuthContext) {
  return { create: can(auth, 'aid_man', 'EDIT') }
}

/** One responder as the console shows it to `auth`; lists and exports mask phone and email. */
export function presentResponder(
  row: ResponderRow,
  auth: AuthContext,
  today: string,
  opts: { masked: boolean },
): Responder {
  return { ...responderObject(row, today, opts), can: responderCan(auth) }
}

const CHANGE_LINES: Record<ResponderChangeKind, Parameters<typeof translate>[0]> = {
  created: 'RESPONDER_CHANGE_CREATED',
  updated: 'RESPONDER_CHANGE_UPDATED',
  imported: 'RESPONDER_CHANGE_IMPORTED',
  renewed: 'RESPONDER_CHANGE_RENEWED',
  paused: 'RESPONDER_CHANGE_PAUSED',
  resumed: 'RESPONDER_CHANGE_RESUMED',
  reminded_30: 'RESPONDER_CHANGE_REMINDED',
  reminded_7: 'RESPONDER_CHANGE_REMINDED',
  expired: 'RESPONDER_CHANGE_EXPIRED',
}

/** The fields an edit changed, by the dialog's labels in the reader's language. */
const FIELD_LABELS: Record<string, [string, string]> = {
  name: ['姓名', 'name'],
  gender: ['性别', 'gender'],
  birth: ['出生日期', 'birth date'],
  email: ['邮箱', 'email'],
  location: ['常驻地址', 'resident address'],
  location_desc: ['具体位置', 'specific location'],
  point: ['位置', 'position'],
  aid_aptitude: ['急救资质', 'qualification'],
  certificate_num: ['证书编号', 'certificate number'],
  certificate_expire: ['证书有效期', 'certificate expiry'],
  certificate_img: ['证书图片', 'certificate image'],
  agency_id: ['所在机构', 'organisation'],
  status: ['绑定机构设备', 'bound devices'],
}

/** A history line in the reader's language. */
export function presentChange(
  c: {
    id: number
    kind: ResponderChangeKind
    detail: Record<string, unknown>
    operator: string | null
    create_time: Date
  },
  lang: Lang,
): ResponderChange {
  const d = c.detail
  const en = lang === 'en-US'
  const fields = Array.isArray(d.fields)
    ? (d.fields as string[]).map((f) => FIELD_LABELS[f]?.[en ? 1 : 0] ?? f).join(en ? ', ' : '、')
    : ''
  return {
    id: c.id,
    kind: c.kind,
    detail: translate(CHANGE_LINES[c.kind], lang, {
      fields: fields || (en ? 'nothing' : '无'),
      expire: typeof d.certificate_expire === 'string' ? d.certificate_expire : '',
      days: typeof d.days === 'number' ? d.days : '',
      reason: typeof d.reason === 'string' && d.reason ? d.reason : en ? 'none given' : '未填写',
      aptitude: typeof d.aid_aptitude === 'number' ? dictLabel('aid_aptitude', d.aid_aptitude, lang) : '',
    }),
    operator: c.operator,
    create_time: formatDateTime(c.create_time),
  }
}
