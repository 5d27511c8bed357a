import type { Permissions } from '@aed/contracts'
import type { Member, MemberForm } from '@aed/contracts/member'
import { USER_ROWS } from '@aed/contracts/member-rules'
import dayjs, { type Dayjs } from 'dayjs'

/** The user dialog's fields. */
export type MemberFormValues = {
  phone: string
  name: string
  email: string
  nationality?: string
  gender?: 1 | 2 | null
  birth?: Dayjs | null
  password?: string
  agency_id?: number
  role_type?: 0 | 1 | 2
  location?: string
  /** A path of region codes, or a stored code. */
  region?: string[] | string | null
  lat?: number | null
  lon?: number | null
  permissions: Permissions
}

/** The dialog's values of a stored user. */
export function fromMember(m: Member, rows: Permissions): MemberFormValues {
  return {
    phone: m.account.phone,
    name: m.account.name,
    email: m.account.email ?? '',
    nationality: m.account.nationality ?? undefined,
    gender: m.account.gender === 1 || m.account.gender === 2 ? m.account.gender : null,
    birth: m.account.birth ? dayjs(m.account.birth) : null,
    agency_id: m.agency_id,
    role_type: m.role_type,
    location: m.account.location ?? '',
    region: m.account.address_code,
    lat: m.account.lat,
    lon: m.account.lon,
    permissions: rows,
  }
}

const regionCode = (r: MemberFormValues['region']) => (Array.isArray(r) ? r.at(-1) : r) || null

/**
 * The request body. Empty birth is left out; each row is sent, null when unset; areas the dialog
 * does not show keep their stored levels; a general user never holds permission management.
 */
export function toMemberForm(v: MemberFormValues, stored: Member | undefined): MemberForm {
  const kept = Object.fromEntries(
    Object.entries(stored?.permissions ?? {}).filter(
      ([area]) => !(USER_ROWS as readonly string[]).includes(area),
    ),
  )
  const rows = Object.fromEntries(USER_ROWS.map((a) => [a, v.permissions?.[a] ?? null]))
  if (v.role_type === 2) rows.member = null
  return {
    account: {
      name: v.name.trim(),
      phone: v.phone.replace(/\s+/g, ''),
      email: v.email.trim(),
      nationality: v.nationality ?? '',
      location: v.location?.trim() ?? '',
      address_code: regionCode(v.region),
      lat: v.lat as number,
      lon: v.lon as number,
      gender: v.gender ?? null,
      ...(v.birth ? { birth: v.birth.format('YYYY-MM-DD') } : {}),
      ...(!stored && v.password ? { password: v.password } : {}),
    },
    agency_id: v.agency_id as number,
    role_type: v.role_type as 0 | 1 | 2,
    permissions: { ...kept, ...rows },
    use_expire: stored?.use_expire ?? null,
  }
}
