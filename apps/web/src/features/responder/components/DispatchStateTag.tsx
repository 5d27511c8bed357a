import type { Responder } from '@aed/contracts/responder'
import { Tag, Tooltip } from 'antd'
import { useTranslation } from 'react-i18next'

const COLORS = { ready: 'green', paused: 'orange', certificate_expired: 'red' } as const

/** Whether alerts reach the responder: 可派单, 已暂停 (the reason in a tooltip), 证书过期. */
export function DispatchStateTag({ responder: r }: { responder: Responder }) {
  const { t } = useTranslation()
  const tag = (
    <Tag color={COLORS[r.dispatch_state]} data-testid={`dispatch-${r.id}`}>
      {t(`responder.dispatch.${r.dispatch_state}`)}
    </Tag>
  )
  return r.dispatch_state === 'paused' && r.pause_reason ? (
    <Tooltip title={r.pause_reason}>{tag}</Tooltip>
  ) : (
    tag
  )
}
