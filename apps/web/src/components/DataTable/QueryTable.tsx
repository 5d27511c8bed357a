import { Table, type TableProps } from 'antd'
import { useTranslation } from 'react-i18next'

/** Pages the server cuts: the page shown, its size, how to change it, and whether to say the total. */
export type ServerPaging = {
  current: number
  pageSize: number
  onChange: (page: number) => void
  total?: boolean
}

type Props<T> = Omit<TableProps<T>, 'dataSource' | 'loading'> & {
  /** The query behind the rows: its `resource` (and `count` when the server pages). */
  query: { data?: { resource: T[]; count?: number }; isFetching: boolean }
  /** Server paging; without it the rows are paged on screen, 10 at a time. */
  paging?: ServerPaging
}

/** A small table of one query's rows, for the dialogs, drawers and detail tabs (the lists use DataTable). */
export function QueryTable<T extends object>({ query, paging, ...table }: Props<T>) {
  const { t } = useTranslation()
  const pagination: TableProps<T>['pagination'] = paging
    ? {
        current: paging.current,
        pageSize: paging.pageSize,
        total: query.data?.count ?? 0,
        onChange: paging.onChange,
        ...(paging.total ? { showTotal: (count: number) => t('table.total', { count }) } : {}),
      }
    : { pageSize: 10 }
  return (
    <Table<T>
      size="small"
      dataSource={query.data?.resource ?? []}
      loading={query.isFetching}
      {...table}
      pagination={{ hideOnSinglePage: true, showSizeChanger: false, ...pagination, ...table.pagination }}
    />
  )
}
