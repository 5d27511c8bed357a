import { useTranslation } from 'react-i18next'
import { selectFilter, textFilter } from '../../../components/FilterForm/fields'
import type { FilterField } from '../../../components/FilterForm/types'

/** The filters of spec 2.3: cabinet number, AED number, door status, bind status. */
export function useCabinetFilterFields(): FilterField[] {
  const { t } = useTranslation()
  /** A yes (1) / no (0) pick with its two labels, 全部 when empty. */
  const yesNo = (name: string, title: string, yes: string, no: string) =>
    selectFilter(
      name,
      t(title),
      [
        { value: 1, label: t(yes) },
        { value: 0, label: t(no) },
      ],
      t('cabinet.all'),
    )
  return [
    textFilter('cabinet_sn', t('cabinet.sn'), t('cabinet.snPlaceholder')),
    textFilter('device_sn', t('cabinet.aedSn'), t('cabinet.aedSnPlaceholder')),
    yesNo('door_status', 'cabinet.doorStatus', 'cabinet.doorOpened', 'cabinet.doorShut'),
    yesNo('bind_status', 'cabinet.bindStatus', 'cabinet.bound', 'cabinet.unbound'),
  ]
}
