import { flattenTree } from '@aed/contracts/agency-rules'
import { DEVICE_MODELS } from '@aed/contracts/constants'
import { useTranslation } from 'react-i18next'
import type { FilterField } from '../../../components/FilterForm/types'
import { useDict } from '../../../lib/useDict'
import { useSession } from '../../../lib/useSession'
import { useAgencyTree } from '../../agency/api/useAgencyTree'
import { menuHas, ORGANISATION_MENU, USERS_MENU } from '../../menu'
import { useMenu } from '../../menu/api/useMenu'
import { INSTALL_PRESET_DAYS } from '../api/deviceQuery'
import { useDeviceManagers } from '../api/useDeviceManagers'

const MODELS = [...new Set(Object.values(DEVICE_MODELS))].map((m) => ({ value: m, label: m }))

/** The device list's filters; the extra ones (expiry bands) only for super administrators. */
export function useDeviceFilterFields(): { fields: FilterField[]; extraFields: FilterField[] } {
  const { t } = useTranslation()
  const { options } = useDict()
  const { token, userInfo } = useSession()
  const menu = useMenu(token)
  const withOrganisations = menuHas(menu.data, ORGANISATION_MENU)
  const withManagers = menuHas(menu.data, USERS_MENU)
  const tree = useAgencyTree()
  const managers = useDeviceManagers(null, '', withManagers)

  const fields: FilterField[] = [
    {
      name: 'device_sn',
      title: t('device.sn'),
      type: 'input',
      placeholder: t('device.snPlaceholder'),
      maxLength: 50,
    },
    { name: 'model', title: t('device.model'), type: 'select', options: MODELS },
    { name: 'status', title: t('device.status'), type: 'select', options: options('device_status') },
    { name: 'address_code', title: t('device.region'), type: 'city_select' },
    {
      name: 'install_time',
      title: t('device.installTime'),
      type: 'custom_time_select',
      presets: Object.entries(INSTALL_PRESET_DAYS).map(([key, days]) => ({
        key,
        label: t('device.lastDays', { count: days }),
      })),
    },
    {
      name: 'battery_state',
      title: t('device.batteryState'),
      type: 'select',
      options: options('battery_band'),
    },
    ...(withOrganisations
      ? [
          {
            name: 'agency_id',
            title: t('device.agency'),
            type: 'select_search',
            options: flattenTree(tree.data ?? []).map((n) => ({ value: n.id, label: n.name })),
          } satisfies FilterField,
        ]
      : []),
    ...(withManagers
      ? [
          {
            name: 'manager_id',
            title: t('device.manager'),
            type: 'select_search',
            options: (managers.data?.resource ?? []).map((m) => ({ value: m.id, label: m.account.name })),
          } satisfies FilterField,
        ]
      : []),
  ]
  const extraFields: FilterField[] =
    userInfo?.role_type === 0
      ? [
          {
            name: 'battery_expire_state',
            type: 'select',
            placeholder: t('device.batteryExpire'),
            options: options('expiry_band'),
          },
          {
            name: 'electrode_sheet_expire_state',
            type: 'select',
            placeholder: t('device.electrodeExpire'),
            options: options('expiry_band'),
          },
          {
            name: 'host_expire_state',
            type: 'select',
            placeholder: t('device.hostExpire'),
            options: options('host_expiry_band'),
          },
        ]
      : []
  return { fields, extraFields }
}
