import { CalendarOutlined, DownOutlined } from '@ant-design/icons'
import { App, Button, DatePicker, Dropdown, Typography } from 'antd'
import type { Dayjs } from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import {
  CUSTOM_TIME_KEY,
  DOTTED_DATE,
  outsideCustomRange,
  parseDotted,
  type TimePreset,
  type TimeRangeValue,
  timeRangeLabel,
} from './timeRange'

type Props = {
  presets: readonly TimePreset[]
  value?: TimeRangeValue
  /** The label to show; by default the preset's or the custom 'start - end'. */
  label?: string
  onChange?: (value: TimeRangeValue, label: string) => void
  placeholder?: string
  disabled?: boolean
  id?: string
}

/**
 * A dropdown of caller presets plus a custom range (key 5): two dates and 确定. A preset emits its
 * key; the custom range emits a pair of dotted dates. It closes on an outside click unless the
 * custom range is being chosen.
 */
export function TimeRangePicker({ presets, value, label, onChange, placeholder, disabled, id }: Props) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [open, setOpen] = useState(false)
  const [custom, setCustom] = useState(false)
  const [start, setStart] = useState<Dayjs | null>(null)
  const [end, setEnd] = useState<Dayjs | null>(null)
  const [error, setError] = useState<string | null>(null)
  const text = label || timeRangeLabel(value, presets)
  const selectedKey = Array.isArray(value) ? CUSTOM_TIME_KEY : value

  const close = () => {
    setCustom(false)
    setError(null)
    setOpen(false)
  }
  const pick = (key: string) => {
    if (key !== CUSTOM_TIME_KEY) {
      close()
      onChange?.(key, timeRangeLabel(key, presets))
      return
    }
    setCustom(true)
    setStart(Array.isArray(value) ? parseDotted(value[0]) : null)
    setEnd(Array.isArray(value) ? parseDotted(value[1]) : null)
  }
  const confirm = () => {
    const problem =
      !start || !end ? t('timeRange.required') : start.isAfter(end, 'day') ? t('timeRange.order') : null
    if (problem || !start || !end) {
      setError(problem)
      message.error(problem)
      return
    }
    const pair: [string, string] = [start.format(DOTTED_DATE), end.format(DOTTED_DATE)]
    close()
    onChange?.(pair, timeRangeLabel(pair, presets))
  }

  const panel = (
    <div className="time-range-custom" data-testid="time-range-custom">
      <div className="time-range-field">
        <Typography.Text type="secondary">{t('timeRange.start')}</Typography.Text>
        <DatePicker
          value={start}
          onChange={setStart}
          disabledDate={(d) => outsideCustomRange(d)}
          format={DOTTED_DATE}
          placeholder={t('timeRange.start')}
          data-testid="time-range-start"
        />
      </div>
      <div className="time-range-field">
        <Typography.Text type="secondary">{t('timeRange.end')}</Typography.Text>
        <DatePicker
          value={end}
          onChange={setEnd}
          disabledDate={(d) => outsideCustomRange(d)}
          format={DOTTED_DATE}
          placeholder={t('timeRange.end')}
          data-testid="time-range-end"
        />
      </div>
      {error && (
        <Typography.Text type="danger" role="alert">
          {error}
        </Typography.Text>
      )}
      <Button type="primary" size="small" onClick={confirm} data-testid="time-range-confirm">
        {t('common.ok')}
      </Button>
    </div>
  )

  return (
    <Dropdown
      open={open}
      trigger={['click']}
      disabled={disabled}
      onOpenChange={(next, info) => {
        if (info.source === 'menu' || (!next && custom)) return
        if (next) setOpen(true)
        else close()
      }}
      menu={{
        items: [...presets, { key: CUSTOM_TIME_KEY, label: t('timeRange.custom') }].map((p) => ({
          key: p.key,
          label: <span data-testid={`time-range-option-${p.key}`}>{p.label}</span>,
        })),
        selectable: true,
        selectedKeys: custom ? [CUSTOM_TIME_KEY] : selectedKey ? [selectedKey] : [],
        onClick: ({ key }) => pick(key),
      }}
      popupRender={(menu) => (
        <div className="time-range-popup">
          {menu}
          {custom && panel}
        </div>
      )}
    >
      <Button id={id} className="time-range-trigger" disabled={disabled} data-testid="time-range-trigger">
        <CalendarOutlined />
        <span className={text ? 'time-range-text' : 'time-range-text time-range-placeholder'}>
          {text || placeholder || t('filter.choose')}
        </span>
        <DownOutlined className="time-range-arrow" />
      </Button>
    </Dropdown>
  )
}
