import { Divider, Form, InputNumber, Radio, Select, TimePicker } from 'antd'
import type { Dayjs } from 'dayjs'
import { useTranslation } from 'react-i18next'
import { useDict } from '../../../lib/useDict'
import { OFFSET_OFF } from '../settingsValues'
import { CallSettingsFields } from './CallSettingsFields'
import { DispatchSettingsFields } from './DispatchSettingsFields'

/** Every alert preference: SMS schedules and window, location offset, expiry reminders, alarm sound and escalation, calls, dispatch. */
export function SettingsForm({ disabled }: { disabled: boolean }) {
  const { t } = useTranslation()
  const dict = useDict()
  const execSms = Form.useWatch<number | undefined>('exec_status_sms')
  const schedules = dict.options('sms_schedule')
  const reminders = dict.options('expire_reminder')
  const ordered = {
    validator: (_: unknown, v?: [Dayjs, Dayjs] | null) =>
      v?.[0] && v[1] && !v[0].isBefore(v[1])
        ? Promise.reject(new Error(t('timeRange.order')))
        : Promise.resolve(),
  }
  const section = (title: string) => (
    <Divider titlePlacement="start" className="settings-divider">
      {title}
    </Divider>
  )
  const select = { disabled, style: { width: 240 } }

  return (
    <>
      {section(t('systemSettings.sms'))}
      <Form.Item name="aid_sms" label={t('systemSettings.aidSms')} extra={t('systemSettings.aidSmsHint')}>
        <Radio.Group disabled={disabled} options={schedules} data-testid="settings-aid-sms" />
      </Form.Item>
      <Form.Item
        name="exec_status_sms"
        label={t('systemSettings.execSms')}
        extra={t('systemSettings.execSmsHint')}
      >
        <Radio.Group disabled={disabled} options={schedules} data-testid="settings-exec-sms" />
      </Form.Item>
      <Form.Item
        name="exec_status_sms_time_period"
        label={t('systemSettings.window')}
        rules={[{ required: true, message: t('systemSettings.windowRequired') }, ordered]}
      >
        <TimePicker.RangePicker
          format="HH:mm"
          disabled={disabled || execSms === 0}
          placeholder={[t('timeRange.start'), t('timeRange.end')]}
          order={false}
          data-testid="settings-window"
        />
      </Form.Item>
      {section(t('systemSettings.device'))}
      <Form.Item
        name="location_offset"
        label={t('systemSettings.offset')}
        extra={t('systemSettings.offsetHint')}
      >
        <Select
          {...select}
          options={[
            { value: OFFSET_OFF, label: dict.label('location_offset', null) },
            ...dict.options('location_offset'),
          ]}
          data-testid="settings-offset"
        />
      </Form.Item>
      <Form.Item name="electrode_sheet_expire" label={t('systemSettings.padExpire')}>
        <Select {...select} options={reminders} data-testid="settings-pad" />
      </Form.Item>
      <Form.Item name="battery_expire" label={t('systemSettings.batteryExpire')}>
        <Select {...select} options={reminders} data-testid="settings-battery" />
      </Form.Item>
      {section(t('systemSettings.alarm'))}
      <Form.Item
        name="alarm_sound"
        label={t('systemSettings.alarmSound')}
        extra={t('systemSettings.alarmSoundHint')}
      >
        <Radio.Group disabled={disabled} options={dict.options('alarm_sound')} data-testid="settings-sound" />
      </Form.Item>
      <Form.Item
        name="alarm_escalate_minutes"
        label={t('systemSettings.escalate')}
        extra={t('systemSettings.escalateHint')}
        rules={[
          { required: true, message: t('systemSettings.escalateRange') },
          { type: 'integer', min: 1, max: 60, message: t('systemSettings.escalateRange') },
        ]}
      >
        <InputNumber
          disabled={disabled}
          min={1}
          max={60}
          precision={0}
          style={{ width: 240 }}
          data-testid="settings-escalate"
        />
      </Form.Item>
      {section(t('systemSettings.call'))}
      <CallSettingsFields disabled={disabled} />
      {section(t('systemSettings.dispatch'))}
      <DispatchSettingsFields disabled={disabled} />
    </>
  )
}
