import { flattenTree } from '@aed/contracts/agency-rules'
import type { EventKind } from '@aed/contracts/event'
import { useTranslation } from 'react-i18next'
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
    {
      name: 'install_location',
      title: e('location'),
      type: 'input',
      placeholder: e('locationPlaceholder'),
      maxLength: 200,
    },
    {
      name: 'start_time',
      hasExtraName: 'end_time',
      title: e('time'),
      type: 'date_range',
      placeholder: e('startTime'),
      placeholder2: e('endTime'),
    },
    ...(kind === 'fault'
      ? [
          {
            name: 'report_type',
            title: e('reportType'),
            type: 'select',
            options: options('report_type'),
          } satisfies FilterField,
        ]
      : []),
    ...(withOrganisations
      ? [
          {
            name: 'agency_id',
            title: e('agency'),
            type: 'select_search',
            options: flattenTree(tree.data ?? []).map((n) => ({ value: n.id, label: n.name })),
          } satisfies FilterField,
        ]
      : []),
    ...(withManagers
      ? [
          {
            name: 'manager_id',
            title: e('manager'),
            type: 'select_search',
            options: (managers.data?.resource ?? []).map((m) => ({ value: m.id, label: m.account.name })),
          } satisfies FilterField,
        ]
      : []),
  ]
}
