import { useTranslation } from 'react-i18next'
import type { FilterField } from '../../../components/FilterForm/types'

/** The filters of spec 2.3: cabinet number, AED number, door status, bind status. */
export function useCabinetFilterFields(): FilterField[] {
  const { t } = useTranslation()
  return [
    {
      name: 'cabinet_sn',
      title: t('cabinet.sn'),
      type: 'input',
      placeholder: t('cabinet.snPlaceholder'),
      maxLength: 50,
    },
    {
      name: 'device_sn',
      title: t('cabinet.aedSn'),
      type: 'input',
      placeholder: t('cabinet.aedSnPlaceholder'),
      maxLength: 50,
    },
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
