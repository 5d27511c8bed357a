import { USAGE_PERIODS } from '@aed/contracts/member'
import { DatePicker, Radio, Space } from 'antd'
import dayjs from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useDict } from '../../../lib/useDict'

type Mode = 'permanent' | 'date' | (typeof USAGE_PERIODS)[number]
type Props = { value?: string | null; onChange?: (value: string | null) => void; disabled?: boolean }

/** Usage period of a user: unlimited, 3 / 7 / 14 / 30 days from now, or until a chosen date. */
export function UsagePeriodField({ value, onChange, disabled }: Props) {
  const { t } = useTranslation()
  const dict = useDict()
  const [mode, setMode] = useState<Mode>(value ? 'date' : 'permanent')
  const pick = (next: Mode) => {
    setMode(next)
    if (next === 'permanent') onChange?.(null)
    else if (typeof next === 'number') onChange?.(dayjs().add(next, 'day').format())
  }
  return (
    <Space orientation="vertical" size={8} className="usage-period">
      <Radio.Group
        value={mode}
        disabled={disabled}
        onChange={(e) => pick(e.target.value)}
        options={[
          { value: 'permanent', label: t('member.period.permanent') },
          ...dict.options('usage_period', USAGE_PERIODS),
          { value: 'date', label: t('member.period.date') },
        ]}
        data-testid="usage-period"
      />
      {mode === 'date' && (
        <DatePicker
          value={value ? dayjs(value) : null}
          disabled={disabled}
          disabledDate={(d) => d.isBefore(dayjs(), 'day')}
          placeholder={t('member.period.datePlaceholder')}
          onChange={(d) => onChange?.(d ? d.endOf('day').format() : null)}
          data-testid="usage-period-date"
        />
      )}
      {value && mode !== 'date' && (
        <span className="usage-period-until">
          {t('member.period.until', { date: dayjs(value).format('YYYY-MM-DD HH:mm') })}
        </span>
      )}
    </Space>
  )
}
