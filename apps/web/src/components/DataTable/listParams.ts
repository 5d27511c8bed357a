/** A filter as it lives in the URL: one value, or several (ranges, multi selects). */
export type FilterValue = string | string[]
export type Filters = Record<string, FilterValue>

export const PAGE_SIZES = [10, 20, 30, 50, 100] as const
export const DEFAULT_PAGE_SIZE = 10
const PAGING_KEYS = ['page', 'page_size', 'order_by']

/** What a list asks its fetch function for. */
export type ListParams = { page: number; page_size: number; order_by?: string; filters: Filters }

function positive(value: string | null, fallback: number) {
  const n = Number(value)
  return Number.isInteger(n) && n > 0 ? n : fallback
}

/** Page, page size, sort and filters of a list from the URL; `fixed` keys are not filters. */
export function readListParams(params: URLSearchParams, fixed: readonly string[] = []): ListParams {
  const filters: Filters = {}
  for (const key of new Set(params.keys())) {
    if (PAGING_KEYS.includes(key) || fixed.includes(key)) continue
    const all = params.getAll(key)
    filters[key] = all.length > 1 ? all : all[0]
  }
  const order = params.get('order_by')
  return {
    page: positive(params.get('page'), 1),
    page_size: positive(params.get('page_size'), DEFAULT_PAGE_SIZE),
    ...(order ? { order_by: order } : {}),
    filters,
  }
}

/** Writes a list's state into URL params, keeping the `fixed` keys of `current`. */
export function writeListParams(
  current: URLSearchParams,
  next: ListParams,
  fixed: readonly string[] = [],
): URLSearchParams {
  const out = new URLSearchParams()
  for (const key of fixed) for (const v of current.getAll(key)) out.append(key, v)
  for (const [key, value] of Object.entries(next.filters)) {
    for (const v of Array.isArray(value) ? value : [value]) out.append(key, v)
  }
  if (next.page !== 1) out.set('page', String(next.page))
  if (next.page_size !== DEFAULT_PAGE_SIZE) out.set('page_size', String(next.page_size))
  if (next.order_by) out.set('order_by', next.order_by)
  return out
}

/** The flat query a list endpoint takes: paging, sort and filters side by side. */
export function toQuery(params: ListParams): Record<string, string | number> {
  const query: Record<string, string | number> = { page: params.page, page_size: params.page_size }
  if (params.order_by) query.order_by = params.order_by
  return Object.assign(query, textFilters(params.filters))
}

/** The filters a query string carries as they are (a multi-value filter left out). */
export function textFilters(filters: Filters): Record<string, string> {
  const texts: Record<string, string> = {}
  for (const [key, value] of Object.entries(filters)) if (!Array.isArray(value)) texts[key] = value
  return texts
}
