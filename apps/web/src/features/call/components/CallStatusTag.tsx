import { CallStatus } from '@aed/contracts/call'
import { Tag } from 'antd'
import { useTranslation } from 'react-i18next'

/** 进行中 (open, red) or 已结束 (closed, grey). */
export function CallStatusTag({ status }: { status: number }) {
  const { t } = useTranslation()
  const open = status === CallStatus.OPEN
  return (
    <Tag color={open ? 'error' : 'default'} data-testid="call-status">
      {t(`call.statuses.${open ? 1 : 0}`)}
    </Tag>
  )
}
