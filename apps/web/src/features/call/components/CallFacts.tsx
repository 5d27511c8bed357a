import type { CallDetail } from '@aed/contracts/call'
import { Descriptions } from 'antd'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../../lib/datetime'
import { CallStatusTag } from './CallStatusTag'

/** The call itself: phone (whole), time, place, region, description, who recorded it, and how it ended. */
export function CallFacts({ call }: { call: CallDetail }) {
  const { t } = useTranslation()
  const dash = t('table.empty')
  const ended = call.outcome
    ? [t(`call.outcomes.${call.outcome}`), call.close_reason && t(`call.closedBy.${call.close_reason}`)]
        .filter(Boolean)
        .join(' · ')
    : dash
  const items = [
    { key: 'phone', label: t('call.phone'), children: call.phone },
    { key: 'time', label: t('call.callTime'), children: formatDateTime(call.call_time) },
    { key: 'location', label: t('call.location'), children: call.location },
    { key: 'region', label: t('call.region'), children: call.region || dash },
    { key: 'status', label: t('call.status'), children: <CallStatusTag status={call.status} /> },
    { key: 'outcome', label: t('call.outcome'), children: ended },
    { key: 'description', label: t('call.description'), children: call.description || dash },
    {
      key: 'recorder',
      label: t('call.recorder'),
      children: `${call.recorder || dash} (${t(`call.sources.${call.source}`)})`,
    },
    ...(call.remark ? [{ key: 'remark', label: t('call.remark'), children: call.remark }] : []),
  ]
  return <Descriptions size="small" column={1} items={items} data-testid="call-facts" />
}
