import { can, maskPhone } from '@aed/contracts'
import { AuditStatus, type ThirdPartyAed, type Volunteer } from '@aed/contracts/review'
import type { AuthContext } from '../../plugins/auth.ts'
import type { ThirdPartyRow, VolunteerRow } from './review.repository.ts'

const iso = (d: Date | null) => (d ? d.toISOString() : null)

/** What the member may do with a row: decide one in review (EDIT), edit (EDIT) or delete (ALL) an approved one. */
function rowCan(auth: AuthContext, status: number, editable: boolean) {
  const system = auth.agency_type === 0
  return {
    audit: system && status === AuditStatus.IN_REVIEW && can(auth, 'agency', 'EDIT'),
    edit: system && editable && status === AuditStatus.APPROVED && can(auth, 'agency', 'EDIT'),
    delete: system && status === AuditStatus.APPROVED && can(auth, 'agency', 'ALL'),
  }
}

/** What the member may do from a list's toolbar: decide (EDIT); export needs no more than reading. */
export function reviewListCan(auth: AuthContext) {
  return { audit: can(auth, 'agency', 'EDIT'), export: true }
}

/** A volunteer as the review page lists it; the phone masked in lists and exports. */
export function presentVolunteer(r: VolunteerRow, auth: AuthContext, o: { masked: boolean }): Volunteer {
  return {
    id: r.id,
    submitter_name: r.submitter_name,
    submitter_phone: o.masked ? maskPhone(r.submitter_phone)! : r.submitter_phone,
    guard_area: r.guard_area,
    has_cert: r.has_cert,
    cert_img: r.cert_img,
    lat: r.lat,
    lon: r.lon,
    create_time: r.create_time.toISOString(),
    audit_time: iso(r.audit_time),
    audit_status: r.audit_status,
    rejected_reason: r.rejected_reason,
    auditor: r.auditor,
    source: r.source,
    responder_id: r.responder_id,
    duplicates: r.duplicates,
    can: rowCan(auth, r.audit_status, false),
  }
}

/** A third-party AED as the review page lists it. */
export function presentThirdParty(
  r: ThirdPartyRow,
  auth: AuthContext,
  o: { masked: boolean },
): ThirdPartyAed {
  return {
    id: r.id,
    brand: r.brand,
    location: r.location,
    location_desc: r.location_desc,
    address_code: r.address_code,
    lat: r.lat,
    lon: r.lon,
    install_imgs: r.install_imgs,
    device_sn: r.device_sn,
    submitter_name: r.submitter_name,
    submitter_phone: o.masked ? maskPhone(r.submitter_phone)! : r.submitter_phone,
    create_time: r.create_time.toISOString(),
    audit_time: iso(r.audit_time),
    audit_status: r.audit_status,
    rejected_reason: r.rejected_reason,
    auditor: r.auditor,
    source: r.source,
    duplicates: r.duplicates,
    can: rowCan(auth, r.audit_status, true),
  }
}

/** A decided submission as its integrator's webhook carries it (the integrator sent it: the phone whole). */
export function openReviewObject(
  kind: 'volunteer' | 'third_party',
  r: Pick<
    VolunteerRow,
    | 'id'
    | 'submitter_name'
    | 'submitter_phone'
    | 'audit_status'
    | 'rejected_reason'
    | 'audit_time'
    | 'create_time'
  >,
) {
  return {
    kind,
    id: r.id,
    submitter_name: r.submitter_name,
    submitter_phone: r.submitter_phone,
    audit_status: r.audit_status,
    rejected_reason: r.rejected_reason,
    audit_time: iso(r.audit_time),
    create_time: r.create_time.toISOString(),
  }
}
