import type { Lang } from '@aed/contracts'
import type { Device } from '@aed/contracts/device'
import { Button, Space } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import { BatteryLevel } from '../../../components/BatteryLevel/BatteryLevel'
import { DeviceStatusTag } from '../../../components/DeviceStatusTag/DeviceStatusTag'
import { formatDateTime } from '../../../lib/datetime'
import { useDict } from '../../../lib/useDict'
import { radioText } from '../radioText'
import { ExpiryDate } from './ExpiryDate'
import { ReadinessTag } from './ReadinessTag'

type Actions = {
  onDetail: (d: Device) => void
  onChange: (d: Device) => void
  onDelete: (d: Device) => void
  /** The electrode-voltage column (the list's can.cable_voltage: system super administrators). */
  cableVoltage?: boolean
}

/** Columns that cannot be hidden with 筛选列. */
export const FIXED_DEVICE_COLUMNS = ['device_sn', 'actions'] as const

/** Columns of the registered device list; change and delete follow the row's `can`. */
export function useDeviceColumns({
  onDetail,
  onChange,
  onDelete,
  cableVoltage = false,
}: Actions): ColumnsType<Device> {
  const { t, i18n } = useTranslation()
  const lang: Lang = i18n.language === 'en-US' ? 'en-US' : 'zh-CN'
  const { label } = useDict()
  const dash = t('table.empty')
  const text = (v: string | null) => v || dash
  return [
    { title: t('device.sn'), dataIndex: 'device_sn', width: 150, fixed: 'left', sorter: true },
    { title: t('device.model'), dataIndex: 'model', width: 90 },
    {
      title: t('device.status'),
      dataIndex: 'status',
      width: 100,
      sorter: true,
      render: (_, d) => <DeviceStatusTag status={d.status} text={d.status_text} />,
    },
    {
      title: t('device.readiness.title'),
      dataIndex: 'readiness',
      width: 100,
      render: (_, d) => <ReadinessTag device={d} />,
    },
    {
      title: t('device.battery'),
      dataIndex: 'battery',
      width: 130,
      sorter: true,
      render: (v: number | null) => <BatteryLevel value={v} empty={dash} />,
    },
    {
      title: t('device.rssi'),
      dataIndex: 'rssi',
      width: 100,
      render: (v: number | null) => radioText.rssi(v, dash),
    },
    {
      title: t('device.positioningType'),
      dataIndex: 'positioning_type',
      width: 100,
      render: (v: string | null) => radioText.positioning(v, lang, dash),
    },
    ...(cableVoltage
      ? [
          {
            title: t('device.cableVoltage'),
            dataIndex: 'cable_voltage',
            width: 100,
            render: (v: number | null) => radioText.cableVoltage(v, dash),
          },
        ]
      : []),
    {
      title: t('device.batteryExpire'),
      dataIndex: 'battery_expire',
      width: 120,
      sorter: true,
      render: (v: string) => <ExpiryDate value={v} />,
    },
    {
      title: t('device.electrodeExpire'),
      dataIndex: 'electrode_sheet_expire',
      width: 132,
      sorter: true,
      render: (v: string) => <ExpiryDate value={v} />,
    },
    {
      title: t('device.hostExpire'),
      dataIndex: 'host_expire',
      width: 120,
      sorter: true,
      render: (v: string) => <ExpiryDate value={v} />,
    },
    {
      title: t('device.location'),
      dataIndex: 'location',
      width: 240,
      ellipsis: true,
      render: (_, d) => [d.location, d.location_desc].filter(Boolean).join(' '),
    },
    { title: t('device.region'), dataIndex: 'address_name', width: 180, ellipsis: true, render: text },
    { title: t('device.agency'), dataIndex: 'agency_name', width: 180, ellipsis: true },
    { title: t('device.manager'), dataIndex: 'name', width: 100, render: text },
    { title: t('device.managerPhone'), dataIndex: 'phone', width: 120, render: text },
    {
      title: t('device.openState'),
      dataIndex: 'open_state',
      width: 90,
      render: (v: number) => label('open_state', v),
    },
    { title: t('device.registerCode'), dataIndex: 'register_code', width: 150 },
    {
      title: t('device.registerTime'),
      dataIndex: 'register_time',
      width: 170,
      sorter: true,
      render: (v: string) => formatDateTime(v),
    },
    { title: t('device.registrant'), dataIndex: 'registrant', width: 100, render: text },
    {
      title: t('table.actions'),
      key: 'actions',
      width: 220,
      fixed: 'right',
      render: (_, d) => (
        <Space size={0} onClick={(e) => e.stopPropagation()}>
          <Button type="link" size="small" onClick={() => onDetail(d)} data-testid={`device-detail-${d.id}`}>
            {t('device.detail')}
          </Button>
          {d.can.edit && (
            <Button
              type="link"
              size="small"
              onClick={() => onChange(d)}
              data-testid={`device-change-${d.id}`}
            >
              {t('device.changeAction')}
            </Button>
          )}
          {d.can.delete && (
            <Button
              type="link"
              size="small"
              danger
              onClick={() => onDelete(d)}
              data-testid={`device-delete-${d.id}`}
            >
              {t('device.deleteInstall')}
            </Button>
          )}
        </Space>
      ),
    },
  ]
}
