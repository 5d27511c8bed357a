import { Descriptions, Divider, Space, Spin, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { useResponder } from '../api/useResponder'
import { DispatchReason } from './DispatchReason'
import { ResponderHistory } from './ResponderHistory'
import { useDetailRows } from './useDetailRows'

/** 人员详情 of the selected responder (fetched: phone and email whole), its history and why it gets no alerts. */
export function ResponderDetail({ id }: { id: number }) {
  const { t } = useTranslation()
  const detail = useResponder(id)
  const items = useDetailRows(detail.data)
  if (!detail.data) return <Spin className="responder-detail-spin" />
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }}>
      <Descriptions size="small" bordered column={2} items={items} data-testid="responder-detail" />
      <DispatchReason responder={detail.data} />
      <Divider titlePlacement="start" plain>
        <Typography.Text strong>{t('responder.history')}</Typography.Text>
      </Divider>
      <ResponderHistory id={id} />
    </Space>
  )
}
