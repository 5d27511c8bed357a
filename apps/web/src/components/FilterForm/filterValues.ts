import dayjs, { type Dayjs } from 'dayjs'
import customParseFormat from 'dayjs/plugin/customParseFormat'
import type { Filters, FilterValue } from '../DataTable/listParams'
import { DEFAULT_FORMATS, type FilterField, RANGE_TYPES } from './types'

dayjs.extend(customParseFormat)

export type FormValue = string | number | Dayjs | null | undefined | (string | number | Dayjs | null)[]
export type FormValues = Record<string, FormValue>

const formatOf = (f: FilterField) => f.format ?? DEFAULT_FORMATS[f.type] ?? 'YYYY-MM-DD'
const isEmpty = (v: unknown) => v === undefined || v === null || v === ''

/** The values a reset leaves: ranges become a pair of empty values, multi selects empty lists. */
export function emptyFormValues(fields: readonly FilterField[]): FormValues {
  return Object.fromEntries(
    fields.map((f) => [
      f.name,
      RANGE_TYPES.includes(f.type) ? [null, null] : f.type === 'select_multi' ? [] : undefined,
    ]),
  )
}

function optionValue(f: FilterField, raw: string): string | number {
  return f.options?.find((o) => String(o.value) === raw)?.value ?? raw
}

function parseDate(f: FilterField, raw: string | undefined): Dayjs | null {
  if (!raw) return null
  const d = dayjs(raw, formatOf(f), true)
  return d.isValid() ? d : null
}

function toFormValue(f: FilterField, filters: Filters): FormValue {
  const raw: FilterValue | undefined = filters[f.name] ?? f.initialValue
  const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw]
  switch (f.type) {
    case 'select_multi':
      return list.map((v) => optionValue(f, v))
    case 'select':
    case 'select_search':
      return list[0] === undefined ? undefined : optionValue(f, list[0])
    case 'date':
    case 'time':
    case 'date_time':
      return parseDate(f, list[0])
    case 'date_range':
    case 'time_range':
    case 'date_time_range': {
      const second = f.hasExtraName ? filters[f.hasExtraName] : list[1]
      return [parseDate(f, list[0]), parseDate(f, Array.isArray(second) ? second[0] : second)]
    }
    case 'custom_time_select':
      return list.length > 1 ? list.slice(0, 2) : list[0]
    default:
      return list[0]
  }
}

/** Form values from the URL filters (for a link or a back navigation). */
export function toFormValues(fields: readonly FilterField[], filters: Filters): FormValues {
  return Object.fromEntries(fields.map((f) => [f.name, toFormValue(f, filters)]))
}

function text(f: FilterField, v: unknown): string {
  if (dayjs.isDayjs(v)) return v.format(formatOf(f))
  return isEmpty(v) ? '' : String(v)
}

/** The filters a search emits: empty values dropped, zero kept, dates formatted. */
export function toFilters(fields: readonly FilterField[], values: FormValues): Filters {
  const out: Filters = {}
  for (const f of fields) {
    const v = values[f.name]
    if (Array.isArray(v)) {
      const items = v.map((x) => text(f, x))
      if (items.every((x) => x === '')) continue
      if (RANGE_TYPES.includes(f.type) && f.hasExtraName) {
        if (items[0]) out[f.name] = items[0]
        if (items[1]) out[f.hasExtraName] = items[1]
      } else {
        out[f.name] = RANGE_TYPES.includes(f.type) ? items : items.filter((x) => x !== '')
      }
      continue
    }
    const s = text(f, v)
    if (s !== '') out[f.name] = s
  }
  return out
}

/** True when a field past the first row holds a value, so the form opens expanded. */
export function hasHiddenValue(hidden: readonly FilterField[], filters: Filters): boolean {
  return hidden.some((f) => filters[f.name] !== undefined || (f.hasExtraName && filters[f.hasExtraName]))
}
