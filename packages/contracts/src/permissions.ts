import { z } from 'zod'

/** role_type: 0 super administrator, 1 administrator, 2 general user. */
export const RoleType = { SUPER_ADMIN: 0, ADMIN: 1, GENERAL: 2 } as const
export const roleTypeSchema = z.union([z.literal(0), z.literal(1), z.literal(2)])
export type RoleTypeValue = z.infer<typeof roleTypeSchema>

/** agency_type: 0 system, 1 general agent, 2 ordinary agency. */
export const AgencyType = { SYSTEM: 0, GENERAL_AGENT: 1, ORDINARY: 2 } as const
export const agencyTypeSchema = z.union([z.literal(0), z.literal(1), z.literal(2)])
export type AgencyTypeValue = z.infer<typeof agencyTypeSchema>

/**
 * Permission areas. Form A of the spec (device, member, aid_man, agency) is the user dialog's
 * default rows; form B (analysis_board, aid_event, device_reg, aid_man, member) is the authority dialog.
 * `agency` is the "system management" row: organisations, classroom, settings, log.
 */
export const permissionAreas = [
  'device',
  'member',
  'aid_man',
  'agency',
  'analysis_board',
  'aid_event',
  'device_reg',
] as const
export type PermissionArea = (typeof permissionAreas)[number]

/** Levels in rising order: READ_ONLY reads, EDIT also writes, ALL also deletes. */
export const permissionLevels = ['READ_ONLY', 'EDIT', 'ALL'] as const
export type PermissionLevel = (typeof permissionLevels)[number]
export const permissionLevelSchema = z.enum(permissionLevels)

export const permissionsSchema = z
  .object(
    Object.fromEntries(
      permissionAreas.map((a) => [a, permissionLevelSchema.nullable().optional()]),
    ) as Record<PermissionArea, z.ZodOptional<z.ZodNullable<typeof permissionLevelSchema>>>,
  )
  .strict()
export type Permissions = Partial<Record<PermissionArea, PermissionLevel | null>>

const rank: Record<PermissionLevel, number> = { READ_ONLY: 1, EDIT: 2, ALL: 3 }

/**
 * The level a member holds in an area; super administrators hold ALL everywhere. Device
 * management has two rows, `device` in the user dialog (read only, edit) and `device_reg` in the
 * authority dialog (read only, all): for `device` the member holds the higher of the two.
 */
export function levelOf(
  member: { role_type: number; permissions: Permissions },
  area: PermissionArea,
): PermissionLevel | null {
  if (member.role_type === RoleType.SUPER_ADMIN) return 'ALL'
  const own = member.permissions[area] ?? null
  if (area !== 'device') return own
  const reg = member.permissions.device_reg ?? null
  if (own === null || reg === null) return own ?? reg
  return rank[own] >= rank[reg] ? own : reg
}

/** True when the member holds at least `needed` in `area`. */
export function can(
  member: { role_type: number; permissions: Permissions },
  area: PermissionArea,
  needed: PermissionLevel,
): boolean {
  const held = levelOf(member, area)
  return held !== null && rank[held] >= rank[needed]
}

/** Names of the areas a member can at least read: what the console stores as its permission list. */
export function heldAreas(member: { role_type: number; permissions: Permissions }): PermissionArea[] {
  return permissionAreas.filter((a) => levelOf(member, a) !== null)
}

/**
 * A name in the console's stored permission list: an area, `system_super` for system super
 * administrators, or `system_review` for members of the system organisation who hold the
 * system-management area (公众审核: they review what the public submits).
 */
export type PermissionName = PermissionArea | 'system_super' | 'system_review'

/**
 * The permission list the console stores and routes are checked against: the areas the member
 * can read, plus `system_super` for a super administrator of the system organisation (the only
 * one who manages service configurations).
 */
export function permissionList(member: {
  role_type: number
  agency_type: number
  permissions: Permissions
}): PermissionName[] {
  const list: PermissionName[] = heldAreas(member)
  if (member.role_type === RoleType.SUPER_ADMIN && member.agency_type === AgencyType.SYSTEM)
    list.push('system_super')
  if (member.agency_type === AgencyType.SYSTEM && levelOf(member, 'agency') !== null)
    list.push('system_review')
  return list
}

/** agency_member_role: 1 when the member may open system management (it holds the agency area). */
export function agencyMemberRole(member: { role_type: number; permissions: Permissions }): 0 | 1 {
  return levelOf(member, 'agency') ? 1 : 0
}
