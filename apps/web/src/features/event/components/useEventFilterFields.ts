import type { EventKind } from '@aed/contracts/event'
import { useTranslation } from 'react-i18next'
import { filterIf, selectFilter, textFilter } from '../../../components/FilterForm/fields'
import type { FilterField } from '../../../components/FilterForm/types'
import { useDict } from '../../../lib/useDict'
import { useScopeFilters } from '../../device/api/useScopeFilters'

/**
 * An event page's filters (spec 2.4): serial, address, dates, the self-test type on the fault
 * page; organisation and manager only when the menu holds their pages, as on the device list.
 */
export function useEventFilterFields(kind: EventKind): FilterField[] {
  const { t } = useTranslation()
  const { options } = useDict()
  const e = (key: string) => t(`event.${key}`)
  const scope = useScopeFilters({ agency: e('agency'), manager: e('manager') })

  return [
    textFilter('device_sn', e('sn'), e('snPlaceholder')),
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
    ...scope,
  ]
}
