import type { Call } from '@aed/contracts/call'
import type { ColumnsType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import { actionsColumn } from '../../../components/TableColumns/actionsColumn'
import { formatDateTime } from '../../../lib/datetime'
import { CallStatusTag } from './CallStatusTag'

type Actions = { onDetail: (c: Call) => void; onClose: (c: Call) => void }

/** Columns of the call list: 详情 for every call, 结束 where the server's `can.close` allows it. */
export function useCallColumns({ onDetail, onClose }: Actions): ColumnsType<Call> {
  const { t } = useTranslation()
  const dash = t('table.empty')
  return [
    { title: t('call.id'), dataIndex: 'id', width: 80 },
    { title: t('call.location'), dataIndex: 'location', width: 260, ellipsis: true },
    { title: t('call.region'), dataIndex: 'region', width: 200, ellipsis: true, render: (v) => v || dash },
    { title: t('call.phone'), dataIndex: 'phone', width: 140 },
    { title: t('call.callTime'), dataIndex: 'call_time', width: 170, render: (v) => formatDateTime(v) },
    {
      title: t('call.status'),
      dataIndex: 'status',
      width: 90,
      render: (v: number) => <CallStatusTag status={v} />,
    },
    {
      title: t('call.outcome'),
      dataIndex: 'outcome',
      width: 110,
      render: (v: Call['outcome']) => (v ? t(`call.outcomes.${v}`) : dash),
    },
    actionsColumn<Call>(t('table.actions'), 130, (c) => [
      { label: t('call.details'), onClick: () => onDetail(c), testId: `call-detail-${c.id}` },
      { label: t('call.close'), onClick: () => onClose(c), testId: `call-close-${c.id}`, show: c.can.close },
    ]),
  ]
}
