import { agencyFilter, filterIf, searchFilter } from '../../../components/FilterForm/fields'
import type { FilterField } from '../../../components/FilterForm/types'
import { useSession } from '../../../lib/useSession'
import { useAgencyTree } from '../../agency/api/useAgencyTree'
import { menuHas, ORGANISATION_MENU, USERS_MENU } from '../../menu'
import { useMenu } from '../../menu/api/useMenu'
import { useDeviceManagers } from './useDeviceManagers'

/**
 * The organisation and device manager filters of the device and event lists, each only when the
 * member's menu holds its page (their options come from those pages' calls).
 */
export function useScopeFilters(titles: { agency: string; manager: string }): FilterField[] {
  const { token } = useSession()
  const menu = useMenu(token)
  const withManagers = menuHas(menu.data, USERS_MENU)
  const tree = useAgencyTree()
  const managers = useDeviceManagers(null, '', withManagers)
  const managerOptions = (managers.data?.resource ?? []).map((m) => ({ value: m.id, label: m.account.name }))
  return [
    ...filterIf(menuHas(menu.data, ORGANISATION_MENU), agencyFilter(titles.agency, tree.data ?? [])),
    ...filterIf(withManagers, searchFilter('manager_id', titles.manager, managerOptions)),
  ]
}
