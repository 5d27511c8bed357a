import type { ColumnsType, ColumnType } from 'antd/es/table'
import { type RowAction, RowActions } from '../RowActions/RowActions'

const ACTIONS_KEY = 'actions'

/** The list's 操作 column, fixed at the right: `actions(row)` gives each row's links. */
export function actionsColumn<T>(
  title: string,
  width: number,
  actions: (row: T) => RowAction[],
): ColumnType<T> {
  return {
    title,
    key: ACTIONS_KEY,
    width,
    fixed: 'right',
    render: (_, row) => <RowActions actions={actions(row)} />,
  }
}

/** The columns without the 操作 column, for members who may change nothing. */
export function withoutActions<T>(columns: ColumnsType<T>): ColumnsType<T> {
  return columns.filter((c) => c.key !== ACTIONS_KEY)
}
