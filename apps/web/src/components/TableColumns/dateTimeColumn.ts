import type { ColumnType } from 'antd/es/table'
import { formatDateTime } from '../../lib/datetime'

/** A sortable column of date-times, shown by `formatDateTime` in the organisations' time zone. */
export function dateTimeColumn<T>(title: string, dataIndex: keyof T & string, width = 170): ColumnType<T> {
  return { title, dataIndex, sorter: true, width, render: (v: string) => formatDateTime(v) }
}
