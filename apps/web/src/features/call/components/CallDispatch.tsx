import type { Dispatch } from '@aed/contracts/dispatch'
import { Tag, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { alertsInOrder, onTheWay, RUN_STATE_COLOR } from './alertStates'
import { DispatchAlertItem } from './DispatchAlertItem'

/**
 * 派单: the dispatch's state, phase and radius, who accepted and arrived, and every alert: those
 * coming or still asked first, those not coming (declined, no answer, stood down) folded below
 * while anyone is on the way.
 */
export function CallDispatch({ dispatch }: { dispatch: Dispatch | null }) {
  const { t } = useTranslation()
  const [unfolded, setUnfolded] = useState(false)
  if (!dispatch)
    return (
      <div className="call-dispatch" data-testid="call-dispatch">
        <Typography.Text strong>{t('call.alert.title')}</Typography.Text>
        <p className="call-dispatch-none">{t('call.alert.none')}</p>
      </div>
    )
  const notComing = dispatch.alerts.filter((a) => !onTheWay(a.state)).length
  // With nobody on the way (a closed dispatch stood everyone down) there is nothing to fold them under.
  const foldable = notComing > 0 && notComing < dispatch.alerts.length
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
      {dispatch.alerts.length === 0 && <p className="call-dispatch-none">{t('call.alert.nobody')}</p>}
      <ul className="call-dispatch-alerts" data-testid="call-dispatch-alerts">
        {alertsInOrder(dispatch.alerts)
          .filter((a) => unfolded || !foldable || onTheWay(a.state))
          .map((a) => (
            <DispatchAlertItem key={a.id} alert={a} />
          ))}
      </ul>
      {foldable && (
        <button
          type="button"
          className="link-button call-dispatch-fold"
          onClick={() => setUnfolded((u) => !u)}
          data-testid="call-dispatch-fold"
        >
          {t(unfolded ? 'call.alert.fold' : 'call.alert.unfold', { count: notComing })}
        </button>
      )}
    </div>
  )
}
