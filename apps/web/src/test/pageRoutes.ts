import { agencyApi } from '@aed/contracts/agency'
import { memberApi } from '@aed/contracts/member'
import { type MenuItem, menuApi } from '@aed/contracts/menu'
import { member, orgMenu, tree } from './adminFixtures'
import { type MockRoute, on } from './mockApi'

/**
 * The calls a list page makes besides its own: the menu (which filters it shows) and the
 * organisation tree; with `managers`, the member list behind the device manager filter.
 */
export function pageRoutes(menu: MenuItem[] = orgMenu, { managers = false } = {}): MockRoute[] {
  return [
    on(menuApi.menu, () => ({ code: 0, data: menu })),
    on(agencyApi.tree, () => ({ code: 0, data: { resource: tree } })),
    ...(managers
      ? [
          on(memberApi.list, () => ({
            code: 0,
            data: { count: 1, resource: [member({ id: 12, role_type: 1 })], can: { create: true } },
          })),
        ]
      : []),
  ]
}
