import type { PageDetailType } from '@aed/contracts/device-detail'
import type { ColumnsType } from 'antd/es/table'
import { QueryTable } from '../../../components/DataTable/QueryTable'
import { useDetailRecords } from '../api/useDetailRecords'

type Props<T> = {
  sn: string
  type: PageDetailType
  active: boolean
  columns: ColumnsType<T>
  /** Only the records of this rescue's span. */
  rescueEventId?: string
}

/** One record tab of the detail: asked for when first shown, newest first, 10 rows a page on screen. */
export function RecordTab<T extends { id: number }>({ sn, type, active, columns, rescueEventId }: Props<T>) {
  const rows = useDetailRecords<T>(sn, type, active, rescueEventId)
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
