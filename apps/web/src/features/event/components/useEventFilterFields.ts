import type { EventKind } from '@aed/contracts/event'
import { useTranslation } from 'react-i18next'
import {
  agencyFilter,
  filterIf,
  searchFilter,
  selectFilter,
  textFilter,
} from '../../../components/FilterForm/fields'
import type { FilterField } from '../../../components/FilterForm/types'
import { useDict } from '../../../lib/useDict'
import { useSession } from '../../../lib/useSession'
import { useAgencyTree } from '../../agency/api/useAgencyTree'
import { useDeviceManagers } from '../../device/api/useDeviceManagers'
import { menuHas, ORGANISATION_MENU, USERS_MENU } from '../../menu'
import { useMenu } from '../../menu/api/useMenu'

/**
 * An event page's filters (spec 2.4): serial, address, dates, the self-test type on the fault
 * page; organisation and manager only when the menu holds their pages, as on the device list.
 */
export function useEventFilterFields(kind: EventKind): FilterField[] {
  const { t } = useTranslation()
  const { options } = useDict()
  const { token } = useSession()
  const menu = useMenu(token)
  const withOrganisations = menuHas(menu.data, ORGANISATION_MENU)
  const withManagers = menuHas(menu.data, USERS_MENU)
  const tree = useAgencyTree()
  const managers = useDeviceManagers(null, '', withManagers)
  const e = (key: string) => t(`event.${key}`)

  return [
    { name: 'device_sn', title: e('sn'), type: 'input', placeholder: e('snPlaceholder'), maxLength: 50 },
    textFilter('install_location', e('location'), e('locationPlaceholder'), 200),
    {
      name: 'start_time',
      hasExtraName: 'end_time',
      title: e('time'),
      type: 'date_range',
      placeholder: e('startTime'),
      placeholder2: e('endTime'),
    },
    ...filterIf(kind === 'fault', selectFilter('report_type', e('reportType'), options('report_type'))),
    ...filterIf(withOrganisations, agencyFilter(e('agency'), tree.data ?? [])),
    ...filterIf(
      withManagers,
      searchFilter(
        'manager_id',
        e('manager'),
        (managers.data?.resource ?? []).map((m) => ({ value: m.id, label: m.account.name })),
      ),
    ),
  ]
}
