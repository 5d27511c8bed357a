import { CALL_TIME_PRESETS } from '@aed/contracts/call'
import { useTranslation } from 'react-i18next'
import { textFilter } from '../../../components/FilterForm/fields'
import type { FilterField } from '../../../components/FilterForm/types'

const MINUTE = 60_000
const DAY = 86_400_000

/** The rescue list's filters: device SN, region and rescue time (the page's presets: 10分钟, 1天, 7天, 30天, custom). */
export function useRescueFilterFields(): FilterField[] {
  const { t } = useTranslation()
  const presets = Object.entries(CALL_TIME_PRESETS).map(([key, ms]) => ({
    key,
    label: ms < DAY ? t('rescue.minutes', { count: ms / MINUTE }) : t('rescue.days', { count: ms / DAY }),
  }))
  return [
    textFilter('device_sn', t('rescue.deviceSn'), t('rescue.snPlaceholder')),
    { name: 'address_code', title: t('rescue.region'), type: 'city_select' },
    { name: 'event_time', title: t('rescue.eventTime'), type: 'custom_time_select', presets },
  ]
}
