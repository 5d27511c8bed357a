import { useCallback, useMemo, useState } from 'react'
import { useSearchParams } from 'react-router'
import { type Filters, type ListParams, readListParams, writeListParams } from './listParams'

export type ListState = ListParams & {
  /** True after `clear()` until the next search or refresh: the table shows nothing. */
  cleared: boolean
  /** Counts searches and refreshes: each one re-arms the first-row highlight. */
  generation: number
  /** New filters, page 1. */
  search: (filters: Filters) => void
  /** No filters, page 1. */
  refresh: () => void
  /** Empty table, total 0, page 1. */
  clear: () => void
  setPage: (page: number, pageSize: number) => void
  setOrder: (orderBy: string | undefined) => void
}

/**
 * A list's page, page size, sort and filters, kept in the URL so a link reproduces the view.
 * `fixed` names URL keys the page manages itself (a tree selection): search and refresh keep them.
 */
export function useListState(fixed: readonly string[] = []): ListState {
  const [params, setParams] = useSearchParams()
  const [cleared, setCleared] = useState(false)
  const [generation, setGeneration] = useState(0)
  const fixedKey = fixed.join(',')
  // biome-ignore lint/correctness/useExhaustiveDependencies: fixedKey stands for the fixed list
  const state = useMemo(() => readListParams(params, fixed), [params, fixedKey])

  const write = useCallback(
    (next: ListParams) => setParams((current) => writeListParams(current, next, fixedKey.split(','))),
    [setParams, fixedKey],
  )
  const search = useCallback(
    (filters: Filters) => {
      setCleared(false)
      setGeneration((g) => g + 1)
      write({ page: 1, page_size: state.page_size, order_by: state.order_by, filters })
    },
    [write, state.page_size, state.order_by],
  )
  const refresh = useCallback(() => search({}), [search])
  const clear = useCallback(() => {
    setCleared(true)
    write({ ...state, page: 1 })
  }, [write, state])
  const setPage = useCallback(
    (page: number, pageSize: number) =>
      write({ ...state, page: pageSize === state.page_size ? page : 1, page_size: pageSize }),
    [write, state],
  )
  const setOrder = useCallback(
    (orderBy: string | undefined) => write({ ...state, page: 1, order_by: orderBy }),
    [write, state],
  )
  return { ...state, cleared, generation, search, refresh, clear, setPage, setOrder }
}
