import type { Device } from '@aed/contracts/device'
import { ClearOutlined, DownloadOutlined, PlusOutlined } from '@ant-design/icons'
import { Button, Card, Space } from 'antd'
import { lazy, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ColumnChooser } from '../../../components/DataTable/ColumnChooser'
import { DataTable } from '../../../components/DataTable/DataTable'
import { useColumnChoice } from '../../../components/DataTable/useColumnChoice'
import { useListState } from '../../../components/DataTable/useListState'
import { FilterForm } from '../../../components/FilterForm/FilterForm'
import { LazyMount } from '../../../components/LazyMount'
import { useAgencyTree } from '../../agency/api/useAgencyTree'
import { useDeviceList } from '../api/useDeviceList'
import { DeviceStats } from '../components/stats/DeviceStats'
import { FIXED_DEVICE_COLUMNS, useDeviceColumns } from '../components/useDeviceColumns'
import { useDeviceFilterFields } from '../components/useDeviceFilterFields'
import { useConfirmDeleteDevice } from '../hooks/useConfirmDeleteDevice'
import '../device.css'
import { useRecordDialogState } from '../../../lib/useRecordDialogState'

// The dialogs (the register dialog brings the map) load on first opening.
const DeviceModal = lazy(() => import('../components/DeviceModal'))
const DeviceDetailDrawer = lazy(() => import('../components/DeviceDetailDrawer'))
const ExportModal = lazy(() => import('../components/ExportModal'))
const CleanModal = lazy(() => import('../components/CleanModal'))

/**
 * The registered devices: filters, the table with its column chooser, register, change, detail,
 * export and clean-up, as the list's `can` allows them.
 */
export function DevicesPage() {
  const { t } = useTranslation()
  const list = useListState()
  const rows = useDeviceList(list)
  const tree = useAgencyTree()
  const can = rows.data?.can
  const { fields, extraFields } = useDeviceFilterFields()
  const dialog = useRecordDialogState()
  const [detail, setDetail] = useState<Device | null>(null)
  const [exporting, setExporting] = useState(false)
  const [cleaning, setCleaning] = useState(false)
  const confirmDelete = useConfirmDeleteDevice()
  const columns = useDeviceColumns({
    onDetail: setDetail,
    onChange: dialog.edit,
    onDelete: confirmDelete,
    cableVoltage: can?.cable_voltage,
  })
  const choice = useColumnChoice('device', columns, FIXED_DEVICE_COLUMNS)
  const region = typeof list.filters.address_code === 'string' ? list.filters.address_code : undefined

  return (
    <div className="page" data-testid="devices-page">
      <DeviceStats
        addressCode={region}
        onFilter={(f) => list.search({ ...(region ? { address_code: region } : {}), ...f })}
      />
      <Card className="filter-card">
        <FilterForm
          fields={fields}
          extraFields={extraFields}
          values={list.filters}
          onSearch={list.search}
          onReset={list.refresh}
        />
      </Card>
      <Card
        title={t('device.list')}
        extra={
          <Space wrap>
            <ColumnChooser
              columns={columns}
              hidden={choice.hidden}
              always={choice.always}
              onChange={choice.setHidden}
              label={t('device.columns')}
            />
            {can?.clean && (
              <Button icon={<ClearOutlined />} onClick={() => setCleaning(true)} data-testid="device-clean">
                {t('device.clean.title')}
              </Button>
            )}
            {can?.export && (
              <Button
                icon={<DownloadOutlined />}
                onClick={() => setExporting(true)}
                data-testid="device-export"
              >
                {t('device.export')}
              </Button>
            )}
            {can?.register && (
              <Button
                type="primary"
                icon={<PlusOutlined />}
                onClick={dialog.add}
                data-testid="device-register"
              >
                {t('device.register')}
              </Button>
            )}
          </Space>
        }
      >
        <DataTable<Device> list={list} columns={choice.shown} rowKey={(d) => d.id} query={rows} />
      </Card>
      <LazyMount when={dialog.modal.open}>
        <DeviceModal
          {...dialog.modal}
          tree={tree.data ?? []}
          abnormalSwitches={can?.abnormal_switches ?? false}
        />
      </LazyMount>
      <LazyMount when={detail !== null}>
        <DeviceDetailDrawer device={detail} onClose={() => setDetail(null)} />
      </LazyMount>
      <LazyMount when={exporting}>
        <ExportModal open={exporting} onClose={() => setExporting(false)} />
      </LazyMount>
      <LazyMount when={cleaning}>
        <CleanModal open={cleaning} cleanAll={can?.clean_all ?? false} onClose={() => setCleaning(false)} />
      </LazyMount>
    </div>
  )
}
