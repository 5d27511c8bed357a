import type { PageDetailType } from '@aed/contracts/device-detail'
import type { ColumnsType } from 'antd/es/table'
import { QueryTable } from '../../../components/DataTable/QueryTable'
import { useDetailRecords } from '../api/useDetailRecords'

type Props<T> = { sn: string; type: PageDetailType; active: boolean; columns: ColumnsType<T> }

/** One record tab of the detail: asked for when first shown, newest first, 10 rows a page on screen. */
export function RecordTab<T extends { id: number }>({ sn, type, active, columns }: Props<T>) {
  const rows = useDetailRecords<T>(sn, type, active)
  return (
    <QueryTable<T>
      columns={columns}
      query={rows}
      rowKey={(r) => r.id}
      scroll={{ x: 'max-content' }}
      data-testid={`records-${type}`}
    />
  )
}
