import type { CallDetail } from '@aed/contracts/call'
import { Typography } from 'antd'
import { useTranslation } from 'react-i18next'

type Props = {
  call: CallDetail
  /** A nearby device's detail is asked for. */
  onDevice: (device: CallDetail['devices'][number]) => void
}

/** The normal devices (nearest first, each opening its detail) and the responders within the call's radius. */
export function CallNearby({ call, onDevice }: Props) {
  const { t } = useTranslation()
  const meters = (count: number) => t('call.meters', { count })
  return (
    <div className="call-nearby" data-testid="call-nearby">
      <Typography.Text strong>
        {t('call.nearbyDevices')} ({call.devices.length}) · {t('call.radius', { radius: call.radius })}
      </Typography.Text>
      <ul data-testid="call-nearby-devices">
        {call.devices.length === 0 && <li>{t('call.noneNearby')}</li>}
        {call.devices.map((d) => (
          <li key={d.id}>
            <button type="button" className="link-button" onClick={() => onDevice(d)}>
              {d.device_sn}
            </button>{' '}
            {meters(d.distance)}
            {d.location && <span className="call-nearby-where"> · {d.location}</span>}
          </li>
        ))}
      </ul>
      <Typography.Text strong>
        {t('call.nearbyResponders')} ({call.responders.length})
      </Typography.Text>
      <ul data-testid="call-nearby-responders">
        {call.responders.length === 0 && <li>{t('call.noneNearby')}</li>}
        {call.responders.map((r) => (
          <li key={r.id}>
            {r.name} {meters(r.distance)} · {t(`call.dispatch.${r.dispatch_state}`)}
          </li>
        ))}
      </ul>
    </div>
  )
}
