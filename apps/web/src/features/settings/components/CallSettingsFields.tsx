import { Form, InputNumber } from 'antd'
import { useTranslation } from 'react-i18next'

/** The contract's bounds of the call settings. */
export const CALL_CLOSE_RANGE = { min: 10, max: 1440 } as const
export const CALL_RADIUS_RANGE = { min: 100, max: 5000 } as const

/** 呼救: how long an open call stays open (minutes), and how far around it the page looks (metres). */
export function CallSettingsFields({ disabled }: { disabled: boolean }) {
  const { t } = useTranslation()
  const field = (
    name: 'call_close_minutes' | 'call_radius_m',
    key: 'callClose' | 'callRadius',
    range: { min: number; max: number },
    testId: string,
  ) => {
    const message = t('systemSettings.rangeInt', range)
    return (
      <Form.Item
        name={name}
        label={t(`systemSettings.${key}`)}
        extra={t(`systemSettings.${key}Hint`)}
        rules={[
          { required: true, message },
          { type: 'integer', ...range, message },
        ]}
      >
        <InputNumber
          disabled={disabled}
          {...range}
          precision={0}
          suffix={t(`systemSettings.${key}Unit`)}
          style={{ width: 240 }}
          data-testid={testId}
        />
      </Form.Item>
    )
  }
  return (
    <>
      {field('call_close_minutes', 'callClose', CALL_CLOSE_RANGE, 'settings-call-close')}
      {field('call_radius_m', 'callRadius', CALL_RADIUS_RANGE, 'settings-call-radius')}
    </>
  )
}
