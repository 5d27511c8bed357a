import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons'
import { Button, Checkbox, Col, Form, Radio, Space, Switch, TimePicker } from 'antd'
import { useTranslation } from 'react-i18next'
import { FieldCol } from '../../../components/FieldCol/FieldCol'
import { useDict } from '../../../lib/useDict'
import type { DeviceFormValues } from './deviceFormValues'

/** The server keeps at most four opening periods. */
export const MAX_PERIODS = 4
const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const

type Props = { disabled: boolean; abnormalSwitches: boolean }

/** Opening (closed, semi-open with days and periods, fully open), mini-program display, the abnormal-status switches when allowed. */
export function DeviceOpenFields({ disabled, abnormalSwitches }: Props) {
  const { t } = useTranslation()
  const dict = useDict()
  const form = Form.useFormInstance<DeviceFormValues>()
  const semi = Form.useWatch('open_state', form) === 1
  return (
    <>
      {(
        [
          [
            'open_state',
            'device.openState',
            'device.required.openState',
            dict.options('open_state'),
            'device-open-state',
          ],
          [
            'xcx_display',
            'device.xcxDisplay',
            'device.required.xcxDisplay',
            [
              { value: 1, label: t('device.yes') },
              { value: 0, label: t('device.no') },
            ],
            'device-xcx-display',
          ],
        ] as const
      ).map(([name, label, required, options, testId]) => (
        <FieldCol key={name} span={12} name={name} label={t(label)} required={t(required)}>
          <Radio.Group disabled={disabled} options={[...options]} data-testid={testId} />
        </FieldCol>
      ))}
      {semi && (
        <Col span={24}>
          <Form.Item
            name="open_day"
            label={t('device.openDay')}
            rules={[{ required: true, type: 'array', min: 1, message: t('device.required.openDay') }]}
          >
            <Checkbox.Group
              disabled={disabled}
              options={WEEKDAYS.map((d) => ({ value: d, label: t(`device.weekdays.${d}`) }))}
              data-testid="device-open-day"
            />
          </Form.Item>
          <Form.List name="open_time_period">
            {(items, { add, remove }) => (
              <Form.Item label={t('device.openPeriod')} required>
                <Space orientation="vertical" size={8} className="device-periods">
                  {items.map((item, i) => (
                    <Space key={item.key} align="baseline">
                      <Form.Item
                        name={item.name}
                        noStyle
                        rules={
                          i === 0
                            ? [
                                {
                                  validator: (_, v: unknown) =>
                                    Array.isArray(v) && v[0] && v[1]
                                      ? Promise.resolve()
                                      : Promise.reject(new Error(t('device.required.openPeriod'))),
                                },
                              ]
                            : []
                        }
                      >
                        <TimePicker.RangePicker
                          format="HH:mm"
                          disabled={disabled}
                          placeholder={[t('timeRange.start'), t('timeRange.end')]}
                          aria-label={t('device.periodN', { n: i + 1 })}
                          data-testid={`device-period-${i}`}
                        />
                      </Form.Item>
                      {i > 0 && !disabled && (
                        <MinusCircleOutlined
                          onClick={() => remove(item.name)}
                          aria-label={t('common.delete')}
                        />
                      )}
                    </Space>
                  ))}
                  {items.length < MAX_PERIODS && !disabled && (
                    <Button type="dashed" size="small" icon={<PlusOutlined />} onClick={() => add(null)}>
                      {t('device.addPeriod')}
                    </Button>
                  )}
                </Space>
              </Form.Item>
            )}
          </Form.List>
        </Col>
      )}
      {abnormalSwitches && (
        <>
          <FieldCol
            span={12}
            name="disable_abnormal_sms_notify"
            label={t('device.smsOff')}
            valuePropName="checked"
          >
            <Switch disabled={disabled} data-testid="device-sms-off" />
          </FieldCol>
          <FieldCol
            span={12}
            name="disable_abnormal_display"
            label={t('device.displayOff')}
            valuePropName="checked"
          >
            <Switch disabled={disabled} data-testid="device-display-off" />
          </FieldCol>
        </>
      )}
    </>
  )
}
