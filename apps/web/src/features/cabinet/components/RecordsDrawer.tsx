import type { Cabinet, CabinetRecord } from '@aed/contracts/cabinet'
import { Drawer } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { BatteryLevel } from '../../../components/BatteryLevel/BatteryLevel'
import { QueryTable } from '../../../components/DataTable/QueryTable'
import { formatDateTime } from '../../../lib/datetime'
import { RECORD_PAGE_SIZE, useCabinetRecords } from '../api/useCabinetRecords'
import { DoorSwitch } from './DoorSwitch'

/** 自检记录: the cabinet's cabinet_status and door reports, newest first, a page at a time. */
export default function RecordsDrawer({
  cabinet,
  onClose,
}: {
  cabinet: Cabinet | null
  onClose: () => void
}) {
  const { t } = useTranslation()
  const [page, setPage] = useState(1)
  const records = useCabinetRecords(cabinet?.id ?? null, page)
  const dash = t('table.empty')
  const text = (v: string | null) => v || dash
  const columns: ColumnsType<CabinetRecord> = [
    { title: t('cabinet.records.time'), dataIndex: 'update_time', width: 170, render: formatDateTime },
    {
      title: t('cabinet.records.type'),
      dataIndex: 'upload_data_type',
      width: 100,
      render: (v: string) => t(`cabinet.records.types.${v}`, v),
    },
    { title: t('cabinet.boundAed'), dataIndex: 'device_sn', width: 130, render: text },
    { title: t('cabinet.aedModel'), dataIndex: 'device_model', width: 90, render: text },
    {
      title: t('cabinet.doorStatus'),
      dataIndex: 'door_status',
      width: 90,
      render: (v: number | null, r) => <DoorSwitch value={v} sn={`record-${r.id}`} />,
    },
    {
      title: t('cabinet.records.aedPresent'),
      dataIndex: 'aed_present',
      width: 80,
      render: (v: boolean | null) =>
        v === null ? dash : v ? t('cabinet.records.yes') : t('cabinet.records.no'),
    },
    {
      title: t('cabinet.battery'),
      dataIndex: 'battery_power',
      width: 120,
      render: (v: number | null) => <BatteryLevel value={v} empty={dash} />,
    },
    { title: t('cabinet.fwVersion'), dataIndex: 'fw_version', width: 90, render: text },
    { title: t('cabinet.location'), dataIndex: 'location', ellipsis: true, render: text },
    {
      title: t('cabinet.records.altitude'),
      dataIndex: 'altitude',
      width: 90,
      render: (v: number | null) => (v === null ? dash : v),
    },
  ]
  return (
    <Drawer
      open={cabinet !== null}
      onClose={() => {
        setPage(1)
        onClose()
      }}
      size={1200}
      destroyOnHidden
      title={t('cabinet.records.title', { sn: cabinet?.cabinet_sn ?? '' })}
      data-testid="cabinet-records"
    >
      <QueryTable<CabinetRecord>
        columns={columns}
        rowKey={(r) => r.id}
        query={records}
        scroll={{ x: 1100 }}
        paging={{ current: page, pageSize: RECORD_PAGE_SIZE, onChange: setPage, total: true }}
      />
    </Drawer>
  )
}
