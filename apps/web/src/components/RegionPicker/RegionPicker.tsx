import { Cascader } from 'antd'
import type { CSSProperties } from 'react'
import { useTranslation } from 'react-i18next'
import { matchesRegion, pathOf, type RegionOption } from './regionOptions'
import { useRegionOptions } from './useRegionOptions'

type Props = {
  /** A path of region codes, or a single code the picker expands to its path. */
  value?: string[] | string | null
  /** The chosen path of codes, province first; undefined when cleared. */
  onChange?: (path: string[] | undefined) => void
  placeholder?: string
  disabled?: boolean
  id?: string
  style?: CSSProperties
  status?: 'error' | 'warning'
}

const SEARCH_LIMIT = 50

/** Cascading region picker: any level selectable, clearable, searchable across every level. */
export function RegionPicker({ value, onChange, placeholder, disabled, id, style, status }: Props) {
  const { t } = useTranslation()
  const regions = useRegionOptions()
  const options = regions.data ?? []
  const path = typeof value === 'string' ? (pathOf(options, value) ?? undefined) : (value ?? undefined)

  return (
    <Cascader<RegionOption>
      id={id}
      style={style}
      status={status}
      options={options}
      value={regions.data ? path : undefined}
      loading={regions.isPending}
      disabled={disabled}
      changeOnSelect
      allowClear
      showSearch={{ filter: matchesRegion, limit: SEARCH_LIMIT }}
      placeholder={placeholder ?? t('region.placeholder')}
      onChange={(next) => onChange?.(next?.length ? next.map(String) : undefined)}
      popupMatchSelectWidth={false}
      data-testid="region-picker"
    />
  )
}
