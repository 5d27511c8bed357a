import type { Dispatch } from '@aed/contracts/dispatch'
import { Tag, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { alertsInOrder, RUN_STATE_COLOR } from './alertStates'
import { DispatchAlertItem } from './DispatchAlertItem'

/** 派单: the dispatch's state, phase and radius, who accepted and arrived, and every alert. */
export function CallDispatch({ dispatch }: { dispatch: Dispatch | null }) {
  const { t } = useTranslation()
  if (!dispatch)
    return (
      <div className="call-dispatch" data-testid="call-dispatch">
        <Typography.Text strong>{t('call.alert.title')}</Typography.Text>
        <p className="call-dispatch-none">{t('call.alert.none')}</p>
      </div>
    )
  return (
    <div className="call-dispatch" data-testid="call-dispatch">
      <div className="call-dispatch-head">
        <Typography.Text strong>{t('call.alert.title')}</Typography.Text>
        <Tag color={RUN_STATE_COLOR[dispatch.state]} data-testid="call-dispatch-state">
          {t(`call.alert.runStates.${dispatch.state}`)}
        </Tag>
        <span className="call-dispatch-phase" data-testid="call-dispatch-phase">
          {t('call.alert.phase', { phase: dispatch.phase + 1, radius: dispatch.radius })}
        </span>
      </div>
      <div className="call-dispatch-counts" data-testid="call-dispatch-counts">
        {t('call.alert.counts', {
          alerts: dispatch.alerts.length,
          accepted: dispatch.accepted,
          arrived: dispatch.arrived,
        })}
      </div>
      <ul className="call-dispatch-alerts" data-testid="call-dispatch-alerts">
        {alertsInOrder(dispatch.alerts).map((a) => (
          <DispatchAlertItem key={a.id} alert={a} />
        ))}
      </ul>
    </div>
  )
}
