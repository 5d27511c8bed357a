import { AgencyType, RoleType } from '@aed/contracts'
import { modelOfSerial } from '@aed/contracts/device'

type Member = { role_type: number; agency_type: number } | null | undefined

/**
 * The toolbar of the cabinet page, by the rules the server enforces (spec 6): delete for super
 * administrators; assign for super administrators of ordinary organisations who may edit; import
 * for those who may edit outside ordinary organisations, choosing the organisation when they are
 * a system organisation or a general agent.
 */
export function cabinetToolbar(member: Member, canEdit: boolean) {
  const superAdmin = member?.role_type === RoleType.SUPER_ADMIN
  const type = member?.agency_type ?? AgencyType.ORDINARY
  return {
    mayDelete: superAdmin,
    mayAssign: superAdmin && type === AgencyType.ORDINARY && canEdit,
    mayImport: Boolean(member) && canEdit && type !== AgencyType.ORDINARY,
    pickAgency: type === AgencyType.SYSTEM || type === AgencyType.GENERAL_AGENT,
  }
}

/** The model the bind dialog shows for a typed serial: characters 2-3 (spec 5), '' when unknown. */
export function boundModel(serial: string | undefined): string {
  return modelOfSerial((serial ?? '').trim())
}
