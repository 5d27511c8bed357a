import type { PageDetailType } from '@aed/contracts/device-detail'
import { Table } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useDetailRecords } from '../api/useDetailRecords'

type Props<T> = { sn: string; type: PageDetailType; active: boolean; columns: ColumnsType<T> }

/** One record tab of the detail: asked for when first shown, newest first, 10 rows a page on screen. */
export function RecordTab<T extends { id: number }>({ sn, type, active, columns }: Props<T>) {
  const rows = useDetailRecords<T>(sn, type, active)
  return (
    <Table<T>
      size="small"
      columns={columns}
      dataSource={rows.data?.resource ?? []}
      loading={rows.isFetching}
      rowKey={(r) => r.id}
      pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
      scroll={{ x: 'max-content' }}
      data-testid={`records-${type}`}
    />
  )
}
