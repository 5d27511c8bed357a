import type { DispatchAlert } from '@aed/contracts/dispatch'
import { Tag } from 'antd'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../../lib/datetime'
import { ALERT_STATE_COLOR } from './alertStates'

/** The time of day of a 'YYYY-MM-DD HH:mm:ss' (or ISO) time. */
const clock = (value: string) => formatDateTime(value).slice(11) || value

/**
 * One alert in two lines: name, masked phone and state; then the role (去现场, or 取AED with the
 * device and its cabinet), distance, walking minutes and when it was sent, answered and reached.
 */
export function DispatchAlertItem({ alert: a }: { alert: DispatchAlert }) {
  const { t } = useTranslation()
  const role =
    a.role === 'aed'
      ? [
          t('call.alert.roles.aed'),
          a.device_sn,
          a.cabinet_sn && t('call.alert.cabinet', { sn: a.cabinet_sn }),
        ]
      : [t('call.alert.roles.patient')]
  const times = [
    t('call.alert.alertedAt', { time: clock(a.alerted_at) }),
    a.answered_at && t('call.alert.answeredAt', { time: clock(a.answered_at) }),
    a.arrived_at && t('call.alert.arrivedAt', { time: clock(a.arrived_at) }),
  ]
  return (
    <li className={`call-alert call-alert-${a.state}`} data-testid={`call-alert-${a.id}`}>
      <div className="call-alert-who">
        <span className="call-alert-name">{a.name}</span>
        <span className="call-alert-phone">{a.phone}</span>
        <Tag color={ALERT_STATE_COLOR[a.state]} className="call-alert-state" data-testid="call-alert-state">
          {t(`call.alert.states.${a.state}`)}
        </Tag>
      </div>
      <div className="call-alert-way" data-testid="call-alert-way">
        {[
          ...role,
          t('call.meters', { count: a.distance }),
          t('call.alert.eta', { count: Math.max(1, Math.round(a.eta_s / 60)) }),
        ]
          .filter(Boolean)
          .join(' · ')}
      </div>
      <div className="call-alert-times">{times.filter(Boolean).join(' · ')}</div>
    </li>
  )
}
