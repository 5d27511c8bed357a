import { AgencyType, can, permissionList, RoleType } from '@aed/contracts'
import type { AuthContext } from '../../plugins/auth.ts'

const systemSuper = (auth: AuthContext) => permissionList(auth).includes('system_super')

/**
 * Who may do what with devices. The services enforce these and the presenters send them as
 * `can`, so the console's buttons follow the rules the writes apply; the route guards check
 * the same levels with the same `can` (`permission: ['device', 'EDIT']`).
 */
export const deviceRules = {
  /** Register, change, inspect and export: EDIT on devices (read-only members neither import nor export). */
  edit: (auth: AuthContext) => can(auth, 'device', 'EDIT'),
  /** Delete install information or a factory device, clean up install information: ALL. */
  delete: (auth: AuthContext) => can(auth, 'device', 'ALL'),
  /** Abnormal-status SMS off and abnormal display off: super administrators. */
  abnormalSwitches: (auth: AuthContext) => auth.role_type === RoleType.SUPER_ADMIN,
  /** Clean up every record a device reported ('all'): system super administrators. */
  cleanAll: systemSuper,
  /** The electrode (cable) voltage, in the list, the detail and the export: system super administrators (agency_type 0, role_type 0). */
  cableVoltage: systemSuper,
  /** The factory import: EDIT, outside ordinary organisations. */
  import: (auth: AuthContext) => can(auth, 'device', 'EDIT') && auth.agency_type !== AgencyType.ORDINARY,
  /** Assign factory devices: super administrators who may edit devices (the spec: role_type 0, not read-only). */
  assign: (auth: AuthContext) => auth.role_type === RoleType.SUPER_ADMIN && can(auth, 'device', 'EDIT'),
  /** Self-test and locate: super administrators. */
  command: (auth: AuthContext) => auth.role_type === RoleType.SUPER_ADMIN,
}
