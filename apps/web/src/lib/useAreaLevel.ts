import { can, levelOf, type PermissionArea } from '@aed/contracts'
import { useSession } from './useSession'

/** What the signed-in member may do in one permission area: READ_ONLY reads, EDIT writes, ALL deletes. */
export function useAreaLevel(area: PermissionArea) {
  const { userInfo } = useSession()
  const member = userInfo ? { role_type: userInfo.role_type, permissions: userInfo.permissions ?? {} } : null
  return {
    level: member ? levelOf(member, area) : null,
    canEdit: member ? can(member, area, 'EDIT') : false,
    canDelete: member ? can(member, area, 'ALL') : false,
  }
}
