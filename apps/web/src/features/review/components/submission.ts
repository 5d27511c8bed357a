import type { Duplicate, ThirdPartyAed, Volunteer } from '@aed/contracts/review'
import type { ReviewKind } from '../api/keys'

/** A volunteer or third-party AED as the decisions and the compare dialog read it. */
export type Submission = {
  kind: ReviewKind
  id: number
  /** What the confirm texts call it: the submitter's name, the AED's brand and place. */
  name: string
  place: string
  placeDesc: string | null
  brand: string | null
  sn: string | null
  photos: readonly string[]
  lat: number | null
  lon: number | null
  duplicates: readonly Duplicate[]
  audit_status: number
  canAudit: boolean
}

export function volunteerSubmission(v: Volunteer): Submission {
  return {
    kind: 'volunteer',
    id: v.id,
    name: v.submitter_name,
    place: v.guard_area,
    placeDesc: null,
    brand: null,
    sn: null,
    photos: v.cert_img ? [v.cert_img] : [],
    lat: v.lat,
    lon: v.lon,
    duplicates: v.duplicates,
    audit_status: v.audit_status,
    canAudit: v.can.audit,
  }
}

export function thirdPartySubmission(a: ThirdPartyAed): Submission {
  return {
    kind: 'third_party',
    id: a.id,
    name: `${a.brand} ${a.location}`,
    place: a.location,
    placeDesc: a.location_desc,
    brand: a.brand,
    sn: a.device_sn,
    photos: a.install_imgs,
    lat: a.lat,
    lon: a.lon,
    duplicates: a.duplicates,
    audit_status: a.audit_status,
    canAudit: a.can.audit,
  }
}
