import type { Device } from '@aed/contracts/device'
import type { Readiness } from '@aed/contracts/device-protocol'
import { Tag, Tooltip } from 'antd'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../../lib/datetime'

/** Ready green, not ready red, unknown grey. */
export const READINESS_COLORS: Record<Readiness, string> = {
  ready: 'green',
  not_ready: 'red',
  unknown: 'default',
}

type Props = {
  device: Pick<Device, 'readiness' | 'readiness_text' | 'readiness_reasons_text' | 'last_pass_time'>
}

/** Whether the AED would work now, with the server's reasons and the last passed self-test on hover. */
export function ReadinessTag({ device: d }: Props) {
  const { t } = useTranslation()
  const tip = (
    <div data-testid="readiness-tip">
      {d.readiness_reasons_text.length > 0 && (
        <div>{t('device.readiness.reasons', { reasons: d.readiness_reasons_text.join('、') })}</div>
      )}
      <div>
        {t('device.readiness.lastPass', {
          time: d.last_pass_time ? formatDateTime(d.last_pass_time) : t('device.readiness.never'),
        })}
      </div>
    </div>
  )
  return (
    <Tooltip title={tip}>
      <Tag color={READINESS_COLORS[d.readiness]} data-testid={`readiness-${d.readiness}`}>
        {d.readiness_text}
      </Tag>
    </Tooltip>
  )
}
