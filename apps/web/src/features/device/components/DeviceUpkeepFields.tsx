import { DatePicker } from 'antd'
import dayjs from 'dayjs'
import { useTranslation } from 'react-i18next'
import { FieldCol } from '../../../components/FieldCol/FieldCol'
import { ImageUpload } from '../../../components/ImageUpload/ImageUpload'
import { beforeToday } from '../deviceRules'

const EXPIRIES = [
  { name: 'battery_expire', label: 'device.batteryExpire', required: 'device.required.batteryExpire' },
  {
    name: 'electrode_sheet_expire',
    label: 'device.electrodeExpire',
    required: 'device.required.electrodeExpire',
  },
  { name: 'host_expire', label: 'device.hostExpire', required: 'device.required.hostExpire' },
] as const

/** The three expiry dates (none before today) and the close-up and far-view photos. */
export function DeviceUpkeepFields({ disabled }: { disabled: boolean }) {
  const { t } = useTranslation()
  return (
    <>
      {EXPIRIES.map((e) => (
        <FieldCol span={8} key={e.name} name={e.name} label={t(e.label)} required={t(e.required)}>
          <DatePicker
            disabled={disabled}
            style={{ width: '100%' }}
            disabledDate={(d) => beforeToday(d, dayjs())}
            placeholder={t(e.required)}
            data-testid={`device-${e.name}`}
          />
        </FieldCol>
      ))}
      <FieldCol span={12} name="chest_shot_img" label={t('device.chestImg')} required>
        <ImageUpload disabled={disabled} />
      </FieldCol>
      <FieldCol span={12} name="long_shot_img" label={t('device.longImg')} required>
        <ImageUpload disabled={disabled} />
      </FieldCol>
    </>
  )
}
