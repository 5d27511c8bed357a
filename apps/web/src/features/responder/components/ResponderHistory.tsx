import { Empty, Spin, Timeline, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../../lib/datetime'
import { useResponderChanges } from '../api/useResponderChanges'

/** 人员记录: what happened to the responder, newest first, and who did it (or 系统). */
export function ResponderHistory({ id }: { id: number }) {
  const { t } = useTranslation()
  const changes = useResponderChanges(id)
  const rows = changes.data?.resource ?? []
  if (changes.isPending) return <Spin size="small" />
  if (rows.length === 0)
    return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('responder.noHistory')} />
  return (
    <Timeline
      className="responder-history"
      data-testid="responder-history"
      items={rows.map((c) => ({
        key: c.id,
        content: (
          <div>
            <Typography.Text strong>{t(`responder.kinds.${c.kind}`)}</Typography.Text>
            {c.detail && <span className="responder-history-detail">{c.detail}</span>}
            <div className="responder-history-meta">
              {c.operator ?? t('responder.system')} · {formatDateTime(c.create_time)}
            </div>
          </div>
        ),
      }))}
    />
  )
}
