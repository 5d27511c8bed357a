// The user and authority dialogs' rules: the console offers what they allow, the server refuses
// what they do not. One copy, imported by both.
import { type PermissionArea, type PermissionLevel, type Permissions, RoleType } from './permissions.ts'

/** The user dialog's permission rows: device, permission, aid-responder and system management. */
export const USER_ROWS = [
  'device',
  'member',
  'aid_man',
  'agency',
] as const satisfies readonly PermissionArea[]
/** The authority dialog's panels, in the spec's order. */
export const AUTHORITY_ROWS = [
  'analysis_board',
  'aid_event',
  'device_reg',
  'aid_man',
  'member',
] as const satisfies readonly PermissionArea[]
/** Panels that can only be read. */
export const READ_ONLY_AREAS: readonly PermissionArea[] = ['analysis_board', 'aid_event']

/**
 * Role options: super admin only when editing a super admin (then locked); admin when a super
 * admin creates or whenever editing; general user always.
 */
export function roleOptions(
  editing: boolean,
  actorRole: number,
  targetRole?: number,
): { values: number[]; locked: boolean } {
  if (editing && targetRole === RoleType.SUPER_ADMIN) return { values: [RoleType.SUPER_ADMIN], locked: true }
  const values = [
    ...(editing || actorRole === RoleType.SUPER_ADMIN ? [RoleType.ADMIN] : []),
    RoleType.GENERAL,
  ]
  return { values, locked: false }
}

/** Levels a member may grant: super admins any, administrators read only, general users none. */
export function grantableLevels(actorRole: number): PermissionLevel[] {
  if (actorRole === RoleType.SUPER_ADMIN) return ['READ_ONLY', 'EDIT', 'ALL']
  if (actorRole === RoleType.ADMIN) return ['READ_ONLY']
  return []
}

/** Rows shown for a target role: general users never get permission management. */
export function visibleRows<A extends PermissionArea>(
  rows: readonly A[],
  targetRole: number | undefined,
  hidden: readonly PermissionArea[],
): A[] {
  return targetRole === RoleType.GENERAL ? rows.filter((r) => !hidden.includes(r)) : [...rows]
}

/** A new user's rows are read only; an edited user's rows keep their levels. */
export function initialRows(stored: Permissions | null): Permissions {
  return Object.fromEntries(USER_ROWS.map((a) => [a, stored ? (stored[a] ?? null) : 'READ_ONLY']))
}

/** The level an unchecked row takes when it is checked: edit when editing (if grantable), else read only. */
export function fallbackLevel(editing: boolean, grantable: readonly PermissionLevel[]): PermissionLevel {
  return editing && grantable.includes('EDIT') ? 'EDIT' : 'READ_ONLY'
}
