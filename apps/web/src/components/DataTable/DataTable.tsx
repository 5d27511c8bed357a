import { Table, type TableProps } from 'antd'
import type { ColumnsType, SorterResult } from 'antd/es/table/interface'
import { type Key, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { PAGE_SIZES } from './listParams'
import { useActiveRow } from './useActiveRow'
import { useFillHeight } from './useFillHeight'
import type { ListQuery } from './useListQuery'
import type { ListState } from './useListState'

export type DataTableProps<T> = {
  list: ListState
  columns: ColumnsType<T>
  rowKey: (row: T) => Key
  /** The page of rows, from the feature's list hook (e.g. `useMemberList(list)`). */
  query: ListQuery<T>
  /** Paging controls (default on); shown only when the total is not zero. */
  pagination?: boolean
  /** Fits the table body into the space its container leaves (measured 500 ms after mount). */
  fillHeight?: boolean
  /** A fixed body height (e.g. '44vh') past which the rows scroll under a fixed header. */
  bodyHeight?: number | string
  onActiveChange?: (row: T | undefined) => void
  /** The row the page selected itself (a new record, a point on a map), highlighted as if clicked. */
  activeKey?: Key | null
  size?: TableProps<T>['size']
  /** Check boxes for toolbar actions on several rows (assign, delete). */
  rowSelection?: TableProps<T>['rowSelection']
}

function withSortOrder<T>(columns: ColumnsType<T>, orderBy: string | undefined): ColumnsType<T> {
  return columns.map((c) => {
    if (!c.sorter || !('dataIndex' in c)) return c
    const field = String(c.dataIndex)
    const order = orderBy === field ? 'ascend' : orderBy === `-${field}` ? 'descend' : null
    return { ...c, sortOrder: order }
  })
}

/** The scroll width: the sum of the column widths, or the content's own width when some have none. */
function scrollWidth<T>(columns: ColumnsType<T>): number | 'max-content' {
  const widths = columns.map((c) => c.width)
  return widths.every((w) => typeof w === 'number')
    ? widths.reduce<number>((a, w) => a + Number(w), 0)
    : 'max-content'
}

/** A paged list: total text, page sizes 10-100, URL-kept sort and paging, first-row highlight. */
export function DataTable<T extends object>(props: DataTableProps<T>) {
  const { list, query, columns, rowKey, pagination = true, fillHeight, size, rowSelection } = props
  const { t } = useTranslation()
  const rows = list.cleared ? [] : (query.data?.resource ?? [])
  const total = list.cleared ? 0 : (query.data?.count ?? 0)
  const active = useActiveRow({
    rows,
    rowKey,
    loadedAt: list.cleared ? 0 : query.dataUpdatedAt,
    generation: list.generation,
    onActiveChange: props.onActiveChange,
    selected: props.activeKey,
  })
  const wrapper = useRef<HTMLDivElement>(null)
  const showPagination = pagination && total > 0
  const filled = useFillHeight(wrapper, Boolean(fillHeight), showPagination)
  const scrollY = props.bodyHeight ?? filled

  const onChange: TableProps<T>['onChange'] = (_p, _f, sorter, extra) => {
    if (extra.action !== 'sort') return
    const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<T> | undefined
    const field = s?.field === undefined ? undefined : String(s.field)
    list.setOrder(field && s?.order ? `${s.order === 'descend' ? '-' : ''}${field}` : undefined)
  }

  return (
    <div ref={wrapper} className={fillHeight ? 'data-table data-table-fill' : 'data-table'}>
      <Table<T>
        size={size}
        rowSelection={rowSelection}
        columns={withSortOrder(columns, list.order_by)}
        dataSource={rows}
        rowKey={rowKey}
        loading={query.isFetching}
        onChange={onChange}
        scroll={{ x: scrollWidth(columns), ...(scrollY ? { y: scrollY } : {}) }}
        rowClassName={(row) => (rowKey(row) === active.key ? 'data-table-row-active' : '')}
        onRow={(row) => ({ onClick: () => active.select(row), 'data-testid': `row-${rowKey(row)}` })}
        pagination={
          showPagination && {
            current: list.page,
            pageSize: list.page_size,
            total,
            pageSizeOptions: PAGE_SIZES.map(String),
            showSizeChanger: true,
            showQuickJumper: true,
            showTotal: (count) => t('table.total', { count }),
            onChange: list.setPage,
          }
        }
      />
    </div>
  )
}
