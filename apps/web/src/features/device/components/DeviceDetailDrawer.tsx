import type { Device } from '@aed/contracts/device'
import type {
  DetectRow,
  EarlyWarnRow,
  FaultRow,
  OffsetRow,
  PageDetailType,
} from '@aed/contracts/device-detail'
import { Drawer, Spin, Tabs, Tag } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DeviceStatusTag } from '../../../components/DeviceStatusTag/DeviceStatusTag'
import type { DeviceRef } from '../../../lib/deviceDetail'
import { useDeviceBase } from '../api/useDeviceBase'
import { useDeviceDetailLiveSync } from '../hooks/useDeviceDetailLiveSync'
import { CommandsTab } from './CommandsTab'
import { DeviceBaseInfo } from './DeviceBaseInfo'
import { InspectTab } from './InspectTab'
import { RecordTab } from './RecordTab'
import { UsageLogTab } from './UsageLogTab'
import { useRecordColumns } from './useRecordColumns'

export const DETAIL_WIDTH = 1000

/**
 * The device detail: basic info (with the change record), the six record tabs of the spec and the
 * remote commands; opened from a rescue, the record tabs show that rescue's span only. The
 * device's pushed status and events refetch it (useDeviceDetailLiveSync).
 */
export default function DeviceDetailDrawer({
  device,
  onClose,
  rescueEventId,
}: {
  device: Device | DeviceRef | null
  onClose: () => void
  rescueEventId?: string
}) {
  const { t } = useTranslation()
  const sn = device?.device_sn ?? ''
  const base = useDeviceBase(device ? sn : null)
  useDeviceDetailLiveSync(device ? sn : null)
  const columns = useRecordColumns()
  const [tab, setTab] = useState('base')
  // The full device: fetched, or the list row until it arrives.
  const full = base.data ?? (device && 'can' in device ? device : undefined)
  const shown = full ?? device
  const record = <T extends { id: number }>(key: string, type: PageDetailType, cols: ColumnsType<T>) => ({
    key,
    label: t(`device.tabs.${key}`),
    children: (
      <RecordTab<T> sn={sn} type={type} active={tab === key} columns={cols} rescueEventId={rescueEventId} />
    ),
  })
  return (
    <Drawer
      open={device !== null}
      onClose={() => {
        setTab('base')
        onClose()
      }}
      size={DETAIL_WIDTH}
      destroyOnHidden
      title={
        shown && (
          <span className="device-detail-title">
            {shown.device_sn}{' '}
            {shown.status !== undefined && (
              <DeviceStatusTag status={shown.status} text={shown.status_text ?? ''} />
            )}
            {rescueEventId && (
              <Tag color="red" data-testid="device-detail-rescue">
                {t('device.detailRescue', { id: rescueEventId })}
              </Tag>
            )}
          </span>
        )
      }
      data-testid="device-detail"
    >
      {device && (
        <Tabs
          activeKey={tab}
          onChange={setTab}
          items={[
            {
              key: 'base',
              label: t('device.tabs.base'),
              children: full ? <DeviceBaseInfo device={full} /> : <Spin />,
            },
            record<EarlyWarnRow>('earlyWarn', 'early_warn', columns.earlyWarn),
            record<OffsetRow>('offset', 'offset', columns.offset),
            record<FaultRow>('fault', 'fault', columns.fault),
            record<DetectRow>('detect', 'detect', columns.detect),
            {
              key: 'inspect',
              label: t('device.tabs.inspect'),
              children: (
                <InspectTab
                  sn={sn}
                  active={tab === 'inspect'}
                  columns={columns.inspect}
                  canRecord={full?.can.edit ?? false}
                  rescueEventId={rescueEventId}
                />
              ),
            },
            {
              key: 'usageLog',
              label: t('device.tabs.usageLog'),
              children: <UsageLogTab sn={sn} active={tab === 'usageLog'} rescueEventId={rescueEventId} />,
            },
            {
              key: 'commands',
              label: t('device.tabs.commands'),
              children: (
                <CommandsTab
                  id={device.id}
                  active={tab === 'commands'}
                  canSend={full?.can.command ?? false}
                />
              ),
            },
          ]}
        />
      )}
    </Drawer>
  )
}
