import { permissionList } from '@aed/contracts'
import type { Device } from '@aed/contracts/device'
import { Card, Descriptions, Image, Space } from 'antd'
import { useTranslation } from 'react-i18next'
import { BatteryLevel } from '../../../components/BatteryLevel/BatteryLevel'
import { DeviceStatusTag } from '../../../components/DeviceStatusTag/DeviceStatusTag'
import { MapView } from '../../../components/MapView/MapView'
import { formatDateTime } from '../../../lib/datetime'
import { useDict } from '../../../lib/useDict'
import { useSession } from '../../../lib/useSession'
import { radioText } from '../radioText'
import { ChangeRecordTable } from './ChangeRecordTable'
import { ExpiryDate } from './ExpiryDate'
import { ReadinessTag } from './ReadinessTag'

/** 基本信息: the device and its installation, where it is, its photos and its change record. */
export function DeviceBaseInfo({ device: d }: { device: Device }) {
  const { t, i18n } = useTranslation()
  const { label } = useDict()
  const { userInfo } = useSession()
  const systemSuper = userInfo ? permissionList(userInfo).includes('system_super') : false
  const dash = t('table.empty')
  const opening =
    d.open_state === 1
      ? `${label('open_state', 1)}：${d.open_day.map((n) => t(`device.weekdays.${n}`)).join('、')} ${d.open_time_period
          .map(([a, b]) => `${a}-${b}`)
          .join('，')}`
      : label('open_state', d.open_state)
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Descriptions size="small" bordered column={2} data-testid="device-base">
        <Descriptions.Item label={t('device.sn')}>{d.device_sn}</Descriptions.Item>
        <Descriptions.Item label={t('device.model')}>{d.model || dash}</Descriptions.Item>
        <Descriptions.Item label={t('device.status')}>
          <DeviceStatusTag status={d.status} text={d.status_text} />
        </Descriptions.Item>
        <Descriptions.Item label={t('device.battery')}>
          <BatteryLevel value={d.battery} empty={dash} />
        </Descriptions.Item>
        <Descriptions.Item label={t('device.readiness.title')} span={2}>
          <Space size={4} wrap>
            <ReadinessTag device={d} />
            {d.readiness_reasons_text.length > 0 && (
              <span data-testid="readiness-reasons">{d.readiness_reasons_text.join('、')}</span>
            )}
          </Space>
        </Descriptions.Item>
        <Descriptions.Item label={t('device.readiness.lastPassTime')}>
          {d.last_pass_time ? formatDateTime(d.last_pass_time) : dash}
        </Descriptions.Item>
        <Descriptions.Item label={t('device.readiness.lastReportTime')}>
          {d.last_report_time ? formatDateTime(d.last_report_time) : dash}
        </Descriptions.Item>
        <Descriptions.Item label={t('device.rssi')}>{radioText.rssi(d.rssi, dash)}</Descriptions.Item>
        <Descriptions.Item label={t('device.positioningType')}>
          {radioText.positioning(d.positioning_type, i18n.language === 'en-US' ? 'en-US' : 'zh-CN', dash)}
        </Descriptions.Item>
        {systemSuper && (
          <Descriptions.Item label={t('device.cableVoltage')} span={2}>
            <span data-testid="device-cable-voltage">{radioText.cableVoltage(d.cable_voltage, dash)}</span>
          </Descriptions.Item>
        )}
        <Descriptions.Item label={t('device.batteryExpire')}>
          <ExpiryDate value={d.battery_expire} />
        </Descriptions.Item>
        <Descriptions.Item label={t('device.electrodeExpire')}>
          <ExpiryDate value={d.electrode_sheet_expire} />
        </Descriptions.Item>
        <Descriptions.Item label={t('device.hostExpire')}>
          <ExpiryDate value={d.host_expire} />
        </Descriptions.Item>
        <Descriptions.Item label={t('device.fwVersion')}>{d.fw_version || dash}</Descriptions.Item>
        <Descriptions.Item label={t('device.agency')}>{d.agency_name}</Descriptions.Item>
        <Descriptions.Item label={t('device.manager')}>
          {d.name ? `${d.name} ${d.phone ?? ''}` : dash}
        </Descriptions.Item>
        <Descriptions.Item label={t('device.contact')}>{d.contact || dash}</Descriptions.Item>
        <Descriptions.Item label={t('device.contactPhone')}>{d.contact_phone || dash}</Descriptions.Item>
        <Descriptions.Item label={t('device.openState')} span={2}>
          {opening}
        </Descriptions.Item>
        <Descriptions.Item label={t('device.xcxDisplay')}>
          {d.xcx_display ? t('device.yes') : t('device.no')}
        </Descriptions.Item>
        <Descriptions.Item label={t('device.registerCode')}>{d.register_code}</Descriptions.Item>
        <Descriptions.Item label={t('device.registerTime')}>
          {formatDateTime(d.register_time)}
        </Descriptions.Item>
        <Descriptions.Item label={t('device.registrant')}>{d.registrant || dash}</Descriptions.Item>
        <Descriptions.Item label={t('device.region')}>{d.address_name || dash}</Descriptions.Item>
        <Descriptions.Item label={t('device.coordinates')}>{`${d.lat}, ${d.lon}`}</Descriptions.Item>
        <Descriptions.Item label={t('device.location')} span={2}>
          {[d.location, d.location_desc].filter(Boolean).join(' ')}
        </Descriptions.Item>
      </Descriptions>
      <div className="device-base-media">
        <MapView height={240} center={d} zoom={13} markers={[{ id: d.id, lat: d.lat, lon: d.lon }]} />
        <Image.PreviewGroup>
          <Space orientation="vertical" size={8}>
            <Image src={d.chest_shot_img} width={200} height={112} alt={t('device.chestImg')} />
            <Image src={d.long_shot_img} width={200} height={112} alt={t('device.longImg')} />
          </Space>
        </Image.PreviewGroup>
      </div>
      <Card size="small" title={t('device.tabs.changeRecord')}>
        <ChangeRecordTable registerCode={d.register_code} />
      </Card>
    </Space>
  )
}
