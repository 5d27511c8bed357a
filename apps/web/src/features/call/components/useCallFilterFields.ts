import { CALL_OUTCOMES, CALL_TIME_PRESETS, CallStatus } from '@aed/contracts/call'
import { useTranslation } from 'react-i18next'
import { selectFilter, textFilter } from '../../../components/FilterForm/fields'
import type { FilterField } from '../../../components/FilterForm/types'
import type { TimePreset } from '../../../components/TimeRangePicker/timeRange'

const MINUTE = 60_000
const DAY = 86_400_000

/** The call-time presets of the spec (10分钟, 1天, 7天, 30天), by their menu key; 5 is the custom range. */
export function useCallTimePresets(): TimePreset[] {
  const { t } = useTranslation()
  return Object.entries(CALL_TIME_PRESETS).map(([key, ms]) => ({
    key,
    label: ms < DAY ? t('call.minutes', { count: ms / MINUTE }) : t('call.days', { count: ms / DAY }),
  }))
}

/** The call list's filters: phone, call time, status, outcome and (the second row) region. */
export function useCallFilterFields(): FilterField[] {
  const { t } = useTranslation()
  const presets = useCallTimePresets()
  const all = t('call.all')
  return [
    textFilter('phone', t('call.phone'), t('call.phonePlaceholder'), 20),
    { name: 'call_time', title: t('call.callTime'), type: 'custom_time_select', presets },
    selectFilter(
      'status',
      t('call.status'),
      [CallStatus.OPEN, CallStatus.CLOSED].map((s) => ({ value: String(s), label: t(`call.statuses.${s}`) })),
      all,
    ),
    selectFilter(
      'outcome',
      t('call.outcome'),
      CALL_OUTCOMES.map((o) => ({ value: o, label: t(`call.outcomes.${o}`) })),
      all,
    ),
    { name: 'address_code', title: t('call.region'), type: 'city_select' },
    {
      name: 'call_time',
      title: t('call.callTime'),
      type: 'custom_time_select',
      presets: useCallTimePresets(),
    },
  ]
}
