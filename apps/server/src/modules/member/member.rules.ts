import { type PermissionLevel, type Permissions, RoleType } from '@aed/contracts'
import { grantableLevels, READ_ONLY_AREAS, roleOptions } from '@aed/contracts/member-rules'
import { invalid } from '../../lib/errors.ts'

type Actor = { role_type: number; member_id: number }

/** The role options of the user dialog (contracts' `roleOptions`); nobody raises a user above their own role. */
export function checkRole(actor: Actor, next: number, current: number | null) {
  const { values } = roleOptions(current !== null, actor.role_type, current ?? undefined)
  if (!values.includes(next) || next < actor.role_type) throw invalid('ROLE_NOT_ALLOWED')
}

/** A member acts only on users of its own role or below. */
export function checkRank(actor: Actor, targetRole: number) {
  if (targetRole < actor.role_type) throw invalid('MEMBER_OUTRANKS')
}

/**
 * Permission rows a member may grant: super administrators any level, administrators read-only,
 * general users none. General users never hold permission management; the overview board and
 * aid events are read-only areas.
 */
export function checkPermissions(
  actor: Actor,
  targetRole: number,
  permissions: Permissions,
  current: Permissions = {},
) {
  // Only what changes is a grant: an administrator may save a user who keeps a level it could not give.
  const granted = Object.entries(permissions).filter(
    ([area, v]) => v && v !== current[area as keyof Permissions],
  ) as [keyof Permissions, PermissionLevel][]
  for (const [area, level] of granted) {
    if (READ_ONLY_AREAS.includes(area) && level !== 'READ_ONLY') throw invalid('PERMISSION_READ_ONLY_AREA')
    if (!grantableLevels(actor.role_type).includes(level)) throw invalid('PERMISSION_LEVEL_NOT_ALLOWED')
  }
  if (targetRole === RoleType.GENERAL && permissions.member) throw invalid('PERMISSION_GENERAL_MEMBER')
}

/** Keeps only the areas with a level, so stored permissions never carry nulls. */
export function normalise(permissions: Permissions): Permissions {
  return Object.fromEntries(Object.entries(permissions).filter(([, v]) => v)) as Permissions
}

/** The user dialog requires permissions (请选择权限) for everyone but super administrators, who hold all. */
export function checkPermissionsChosen(roleType: number, permissions: Permissions) {
  if (roleType !== RoleType.SUPER_ADMIN && !Object.values(permissions).some(Boolean)) {
    throw invalid('PERMISSION_REQUIRED')
  }
}
