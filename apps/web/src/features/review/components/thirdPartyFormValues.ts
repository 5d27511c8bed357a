import { type ThirdPartyAed, thirdPartyEditFields } from '@aed/contracts/review'
import { z } from 'zod'
import type { ThirdPartyEditBody } from '../api/useEditThirdPartyAed'

/** The edit dialog's fields; `region` is the picker's path or a stored code. */
export type ThirdPartyFormValues = {
  brand?: string
  location?: string
  location_desc?: string
  region?: string[] | string | null
  lat?: number | null
  lon?: number | null
  install_imgs?: string[]
}

export function fromThirdPartyAed(a: ThirdPartyAed): ThirdPartyFormValues {
  return {
    brand: a.brand,
    location: a.location,
    location_desc: a.location_desc ?? '',
    region: a.address_code,
    lat: a.lat,
    lon: a.lon,
    install_imgs: a.install_imgs,
  }
}

const regionCode = (r: ThirdPartyFormValues['region']) => (Array.isArray(r) ? r.at(-1) : r) || null

/** The edit's body (update_type 2 is added by the save). */
export function toEditBody(v: ThirdPartyFormValues): ThirdPartyEditBody {
  return {
    brand: v.brand as string,
    location: v.location?.trim() ?? '',
    location_desc: v.location_desc?.trim() || null,
    address_code: regionCode(v.region),
    lat: v.lat as number,
    lon: v.lon as number,
    install_imgs: v.install_imgs ?? [],
  }
}

const editForm = z.object(thirdPartyEditFields)

/** The form field a contract field's problem is shown under: the point's under the address. */
const FIELD_OF: Record<string, keyof ThirdPartyFormValues> = {
  lat: 'location',
  lon: 'location',
  address_code: 'region',
}

/** The contract's problems with the edit: the first of each form field, with its message key. */
export function editProblems(body: ThirdPartyEditBody): { field: keyof ThirdPartyFormValues; key: string }[] {
  const result = editForm.safeParse(body)
  if (result.success) return []
  const found = new Map<keyof ThirdPartyFormValues, string>()
  for (const issue of result.error.issues) {
    const name = String(issue.path[0] ?? 'location')
    const field = FIELD_OF[name] ?? (name as keyof ThirdPartyFormValues)
    if (!found.has(field)) found.set(field, issue.message)
  }
  return [...found].map(([field, key]) => ({ field, key }))
}
