import { useTranslation } from 'react-i18next'
import { textFilter } from '../../../components/FilterForm/fields'
import type { FilterField } from '../../../components/FilterForm/types'

/** The filters of spec 2.3: cabinet number, AED number, door status, bind status. */
export function useCabinetFilterFields(): FilterField[] {
  const { t } = useTranslation()
  return [
    textFilter('cabinet_sn', t('cabinet.sn'), t('cabinet.snPlaceholder')),
    textFilter('device_sn', t('cabinet.aedSn'), t('cabinet.aedSnPlaceholder')),
    {
      name: 'door_status',
      title: t('cabinet.doorStatus'),
      type: 'select',
      placeholder: t('cabinet.all'),
      options: [
        { value: 1, label: t('cabinet.doorOpened') },
        { value: 0, label: t('cabinet.doorShut') },
      ],
    },
    {
      name: 'bind_status',
      title: t('cabinet.bindStatus'),
      type: 'select',
      placeholder: t('cabinet.all'),
      options: [
        { value: 1, label: t('cabinet.bound') },
        { value: 0, label: t('cabinet.unbound') },
      ],
    },
  ]
}
