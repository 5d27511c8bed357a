import { CloseOutlined, PlusOutlined } from '@ant-design/icons'
import { Button, InputNumber, Space } from 'antd'
import { useTranslation } from 'react-i18next'
import { DISPATCH_RANGES, RADII_MAX } from './dispatchRanges'

type Props = {
  value?: (number | null)[]
  onChange?: (value: (number | null)[]) => void
  disabled?: boolean
}

const STEP = 500

/** 各阶段范围: one number a phase, nearest first; a phase added (up to five) or taken away (one stays). */
export function RadiiInput({ value = [], onChange, disabled }: Props) {
  const { t } = useTranslation()
  const { min, max } = DISPATCH_RANGES.dispatch_radii_m
  const set = (i: number, v: number | null) => onChange?.(value.map((old, j) => (j === i ? v : old)))
  const last = value.at(-1) ?? 0
  return (
    <Space wrap size={[8, 8]} data-testid="settings-dispatch-radii">
      {value.map((radius, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a phase is its position (phase 1, 2, ...), not its value
        <Space.Compact key={i}>
          <InputNumber
            value={radius}
            min={min}
            max={max}
            precision={0}
            disabled={disabled}
            onChange={(v) => set(i, v)}
            aria-label={t('systemSettings.dispatchRadiusPhase', { n: i + 1 })}
            style={{ width: 96 }}
            data-testid={`settings-dispatch-radius-${i}`}
          />
          {value.length > 1 && !disabled && (
            <Button
              icon={<CloseOutlined />}
              onClick={() => onChange?.(value.filter((_, j) => j !== i))}
              aria-label={t('systemSettings.dispatchRadiusRemove', { n: i + 1 })}
              data-testid={`settings-dispatch-radius-remove-${i}`}
            />
          )}
        </Space.Compact>
      ))}
      {value.length < RADII_MAX && !disabled && (
        <Button
          icon={<PlusOutlined />}
          onClick={() => onChange?.([...value, Math.min(max, (last ?? 0) + STEP)])}
          data-testid="settings-dispatch-radius-add"
        >
          {t('systemSettings.dispatchRadiusAdd')}
        </Button>
      )}
    </Space>
  )
}
