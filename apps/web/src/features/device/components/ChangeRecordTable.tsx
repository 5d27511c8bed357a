import type { changeRecordSchema } from '@aed/contracts/device'
import { Table } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import type { z } from 'zod'
import { formatDateTime } from '../../../lib/datetime'
import { useDict } from '../../../lib/useDict'
import { useChangeRecord } from '../api/useChangeRecord'

type ChangeRow = z.infer<typeof changeRecordSchema>

/** The change record of an installation: register, changes, moves, replacements, deletion. */
export function ChangeRecordTable({ registerCode }: { registerCode: string }) {
  const { t } = useTranslation()
  const { label } = useDict()
  const record = useChangeRecord(registerCode)
  const dash = t('table.empty')
  const columns: ColumnsType<ChangeRow> = [
    {
      title: t('device.record.time'),
      dataIndex: 'update_time',
      width: 170,
      render: (v: string) => formatDateTime(v),
    },
    {
      title: t('device.record.type'),
      dataIndex: 'update_type',
      width: 110,
      render: (v: number) => label('device_update_type', v),
    },
    { title: t('device.record.field'), dataIndex: 'update_field', ellipsis: true },
    {
      title: t('device.record.oldSn'),
      dataIndex: 'old_device_sn',
      width: 150,
      render: (v: string | null) => v || dash,
    },
    { title: t('device.record.updator'), dataIndex: 'updator', width: 110 },
  ]
  return (
    <Table<ChangeRow>
      size="small"
      columns={columns}
      dataSource={record.data?.resource ?? []}
      loading={record.isFetching}
      rowKey={(r) => `${r.update_time}-${r.update_type}-${r.update_field}`}
      pagination={{ pageSize: 10, hideOnSinglePage: true }}
      data-testid="change-record"
    />
  )
}
