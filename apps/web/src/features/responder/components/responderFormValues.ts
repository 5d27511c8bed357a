import { AidAptitude, type Responder, type ResponderFormIn } from '@aed/contracts/responder'
import type { ResponderSubmitValues } from '@aed/contracts/responder-rules'
import dayjs, { type Dayjs } from 'dayjs'
import { DATE_FORMAT } from '../../../lib/datetime'

/** The responder dialog's fields, flat; the save payload nests the person under `account`. */
export type ResponderFormValues = {
  phone: string
  name?: string
  email?: string
  gender?: 1 | 2 | null
  birth?: Dayjs | null
  location?: string
  location_desc?: string
  address_code?: string | null
  lat?: number | null
  lon?: number | null
  aid_aptitude?: 0 | 1
  certificate_num?: string
  certificate_expire?: Dayjs | null
  certificate_img?: string | null
  agency_id?: number
  status?: 0 | 1
  account_id?: number | null
}

const date = (d: Dayjs | null | undefined) => (d ? d.format(DATE_FORMAT) : null)
const oneOf = <T extends number>(v: number | null, allowed: readonly T[]) =>
  allowed.includes(v as T) ? (v as T) : undefined

/** A new registration in the member's own organisation. */
export function newResponderValues(agencyId: number | undefined): ResponderFormValues {
  return { phone: '', agency_id: agencyId }
}

/** The dialog's values of a stored responder (the detail: phone and email whole). */
export function fromResponder(r: Responder): ResponderFormValues {
  return {
    account_id: r.account.id,
    phone: r.account.phone,
    name: r.account.name,
    email: r.account.email ?? '',
    gender: oneOf(r.account.gender, [1, 2] as const) ?? null,
    birth: r.account.birth ? dayjs(r.account.birth) : null,
    location: r.account.location ?? '',
    location_desc: r.account.location_desc ?? '',
    address_code: r.account.address_code,
    lat: r.account.lat,
    lon: r.account.lon,
    aid_aptitude: oneOf(r.aid_aptitude, [0, 1] as const),
    certificate_num: r.certificate_num ?? '',
    certificate_expire: r.certificate_expire ? dayjs(r.certificate_expire) : null,
    certificate_img: r.certificate_img,
    agency_id: r.agency_id,
    status: oneOf(r.status, [0, 1] as const),
  }
}

/** What the spec's submit-time checks read of the form. */
export function submitValues(v: ResponderFormValues): ResponderSubmitValues {
  return { ...v, birth: date(v.birth) }
}

/** The save payload; a non-professional's certificate fields are sent empty. */
export function toResponderForm(v: ResponderFormValues): ResponderFormIn {
  const professional = v.aid_aptitude === AidAptitude.PROFESSIONAL
  return {
    account_id: v.account_id ?? null,
    account: {
      phone: v.phone.replace(/\s+/g, ''),
      name: v.name?.trim() ?? '',
      birth: date(v.birth) ?? '',
      gender: v.gender as 1 | 2,
      lat: v.lat as number,
      lon: v.lon as number,
      location: v.location?.trim() ?? '',
      location_desc: v.location_desc?.trim() || null,
      address_code: v.address_code || null,
      email: v.email?.trim() || null,
    },
    aid_aptitude: v.aid_aptitude as 0 | 1,
    certificate_num: professional ? v.certificate_num?.trim() || null : null,
    certificate_expire: professional ? date(v.certificate_expire) : null,
    certificate_img: professional ? v.certificate_img || null : null,
    agency_id: v.agency_id as number,
    status: v.status as 0 | 1,
  }
}
