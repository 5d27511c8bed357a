import type { Agency, AgencyForm } from '@aed/contracts/agency'

/** The organisation dialog's fields; `region` is a path of codes or a stored district code. */
export type AgencyFormValues = {
  name: string
  agency_type: 0 | 1 | 2
  parent_id?: number | null
  contact_name: string
  phone: string
  region?: string[] | string
  location?: string
}

export function regionCode(region: AgencyFormValues['region']): string {
  return (Array.isArray(region) ? region.at(-1) : region) ?? ''
}

/** The dialog's values of a stored organisation. */
export function fromAgency(a: Agency): AgencyFormValues {
  return {
    name: a.name,
    agency_type: a.agency_type,
    parent_id: a.parent_id,
    contact_name: a.contact_name ?? '',
    phone: a.phone ?? '',
    region: a.address_code ?? undefined,
    location: a.location ?? '',
  }
}

/** The request body: the parent is null when none is chosen. */
export function toAgencyForm(v: AgencyFormValues): AgencyForm {
  return {
    name: v.name.trim(),
    agency_type: v.agency_type,
    parent_id: v.parent_id ?? null,
    contact_name: v.contact_name.trim(),
    phone: v.phone.trim(),
    location: v.location?.trim() || null,
    address_code: regionCode(v.region),
  }
}
