import type { MenuItem } from '@aed/contracts'

const SYSTEM_MANAGEMENT_NAME = 'systemManagement'
const SYSTEM_MANAGEMENT_TITLES = ['system management', '系统管理']

function isSystemManagement(item: MenuItem) {
  return (
    item.name === SYSTEM_MANAGEMENT_NAME || SYSTEM_MANAGEMENT_TITLES.includes(item.title.trim().toLowerCase())
  )
}

/** The server menu as shown: 'system management' entries only for agency_member_role 1. */
export function visibleMenu(items: readonly MenuItem[], agencyMemberRole: number | undefined): MenuItem[] {
  return items
    .filter((item) => agencyMemberRole === 1 || !isSystemManagement(item))
    .map((item) =>
      item.children ? { ...item, children: visibleMenu(item.children, agencyMemberRole) } : item,
    )
}
