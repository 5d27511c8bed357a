import type { ColumnsType } from 'antd/es/table'

/** The key a column is chosen by: its `key`, else its dataIndex. */
export function columnKey<T>(c: ColumnsType<T>[number]): string {
  if (c.key !== undefined) return String(c.key)
  return 'dataIndex' in c && c.dataIndex !== undefined ? String(c.dataIndex) : ''
}

/** The columns left when `hidden` are taken out; the always-shown ones stay. */
export function visibleColumns<T>(
  columns: ColumnsType<T>,
  hidden: readonly string[],
  always: readonly string[],
): ColumnsType<T> {
  return columns.filter((c) => always.includes(columnKey(c)) || !hidden.includes(columnKey(c)))
}
