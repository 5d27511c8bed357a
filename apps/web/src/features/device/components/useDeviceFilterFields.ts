import { DEVICE_MODELS } from '@aed/contracts/constants'
import { useTranslation } from 'react-i18next'
import { selectFilter, textFilter } from '../../../components/FilterForm/fields'
import type { FilterField } from '../../../components/FilterForm/types'
import { useDict } from '../../../lib/useDict'
import { useSession } from '../../../lib/useSession'
import { INSTALL_PRESET_DAYS } from '../api/deviceQuery'
import { useScopeFilters } from '../api/useScopeFilters'

const MODELS = [...new Set(Object.values(DEVICE_MODELS))].map((m) => ({ value: m, label: m }))

/** The device list's filters; the extra ones (expiry bands) only for super administrators. */
export function useDeviceFilterFields(): { fields: FilterField[]; extraFields: FilterField[] } {
  const { t } = useTranslation()
  const { options } = useDict()
  const { userInfo } = useSession()
  const scope = useScopeFilters({ agency: t('device.agency'), manager: t('device.manager') })

  const fields: FilterField[] = [
    textFilter('device_sn', t('device.sn'), t('device.snPlaceholder')),
    selectFilter('model', t('device.model'), MODELS),
    selectFilter('status', t('device.status'), options('device_status')),
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
    selectFilter('battery_state', t('device.batteryState'), options('battery_band')),
    ...scope,
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
