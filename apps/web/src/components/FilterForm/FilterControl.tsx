import { DatePicker, Input, Select, TimePicker } from 'antd'
import { useTranslation } from 'react-i18next'
import { RegionPicker } from '../RegionPicker/RegionPicker'
import { TimeRangePicker } from '../TimeRangePicker/TimeRangePicker'
import type { TimeRangeValue } from '../TimeRangePicker/timeRange'
import type { FormValue } from './filterValues'
import { DEFAULT_FORMATS, type FilterField } from './types'

type Props = {
  field: FilterField
  id?: string
  value?: FormValue
  onChange?: (value: FormValue) => void
  /** The custom time label the form keeps; cleared by reset. */
  label?: string
  onLabel?: (label: string) => void
}

/** The control of one filter field, by its type. */
export function FilterControl({ field: f, id, value, onChange, label, onLabel }: Props) {
  const { t } = useTranslation()
  const choose = f.placeholder ?? t('filter.choose')
  const common = { id, disabled: f.disabled, 'data-testid': `filter-${f.name}` }
  const format = f.format ?? DEFAULT_FORMATS[f.type]
  const range = [f.placeholder ?? t('filter.start'), f.placeholder2 ?? t('filter.end')] as [string, string]
  // antd controls type their own values; the form store holds them as FormValue.
  const change = (v: unknown) => onChange?.(v as FormValue)
  const anyValue = value as never

  switch (f.type) {
    case 'input':
      return (
        <Input
          {...common}
          value={value as string}
          onChange={(e) => change(e.target.value)}
          placeholder={f.placeholder ?? t('filter.enter')}
          allowClear
        />
      )
    case 'select':
    case 'select_search':
    case 'select_multi':
      return (
        <Select
          {...common}
          value={anyValue}
          onChange={change}
          options={f.options}
          placeholder={choose}
          allowClear
          mode={f.type === 'select_multi' ? 'multiple' : undefined}
          maxTagCount="responsive"
          showSearch={f.type === 'select_search' ? { optionFilterProp: 'label' } : undefined}
        />
      )
    case 'date':
    case 'date_time':
      return (
        <DatePicker
          {...common}
          value={anyValue}
          onChange={change}
          showTime={f.type === 'date_time'}
          format={format}
          placeholder={choose}
          style={{ width: '100%' }}
        />
      )
    case 'time':
      return (
        <TimePicker
          {...common}
          value={anyValue}
          onChange={change}
          format={format}
          placeholder={choose}
          style={{ width: '100%' }}
        />
      )
    case 'date_range':
    case 'date_time_range':
      return (
        <DatePicker.RangePicker
          {...common}
          value={anyValue}
          onChange={change}
          showTime={f.type === 'date_time_range'}
          format={format}
          placeholder={range}
          style={{ width: '100%' }}
        />
      )
    case 'time_range':
      return (
        <TimePicker.RangePicker
          {...common}
          value={anyValue}
          onChange={change}
          format={format}
          placeholder={range}
          style={{ width: '100%' }}
        />
      )
    case 'city_select':
      return (
        <RegionPicker
          id={id}
          disabled={f.disabled}
          value={value as string | undefined}
          onChange={(path) => change(path?.at(-1))}
          placeholder={f.placeholder}
          style={{ width: '100%' }}
        />
      )
    case 'custom_time_select':
      return (
        <TimeRangePicker
          id={id}
          presets={f.presets ?? []}
          value={value as TimeRangeValue | undefined}
          label={label}
          disabled={f.disabled}
          placeholder={choose}
          onChange={(v, l) => {
            onLabel?.(l)
            change(v)
          }}
        />
      )
  }
}
