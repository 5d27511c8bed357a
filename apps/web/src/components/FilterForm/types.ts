import type { Rule } from 'antd/es/form'
import type { ReactNode } from 'react'
import type { TimePreset } from '../TimeRangePicker/timeRange'

export type FilterType =
  | 'input'
  | 'select'
  | 'select_search'
  | 'select_multi'
  | 'date'
  | 'time'
  | 'date_time'
  | 'date_range'
  | 'time_range'
  | 'date_time_range'
  | 'city_select'
  | 'custom_time_select'

export type FilterOption = { label: ReactNode; value: string | number; key?: string }

/** One field of a filter bar. */
export type FilterField = {
  name: string
  title?: string
  type: FilterType
  placeholder?: string
  /** Second placeholder of a range. */
  placeholder2?: string
  options?: FilterOption[]
  /** The caller's own rules; they run before the search. */
  rules?: Rule[]
  /** Inputs longer than this fail with 字符长度不超过50 style text. */
  maxLength?: number
  disabled?: boolean
  /** Date / time format of the emitted value. */
  format?: string
  /** A range emits its end under this name instead of as the second of a pair. */
  hasExtraName?: string
  /** Presets of a custom_time_select. */
  presets?: TimePreset[]
  /** Columns of 24 (default 6). */
  span?: number
  /** Shown when the URL holds no value for the field: the view the page falls back to. */
  initialValue?: string
}

export const RANGE_TYPES: readonly FilterType[] = ['date_range', 'time_range', 'date_time_range']
export const DEFAULT_FORMATS: Partial<Record<FilterType, string>> = {
  date: 'YYYY-MM-DD',
  date_range: 'YYYY-MM-DD',
  time: 'HH:mm:ss',
  time_range: 'HH:mm:ss',
  date_time: 'YYYY-MM-DD HH:mm:ss',
  date_time_range: 'YYYY-MM-DD HH:mm:ss',
}
