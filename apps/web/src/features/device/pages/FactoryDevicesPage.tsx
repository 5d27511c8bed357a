import { AgencyType, RoleType } from '@aed/contracts'
import { flattenTree } from '@aed/contracts/agency-rules'
import { DEVICE_MODELS } from '@aed/contracts/constants'
import type { FactoryDevice } from '@aed/contracts/device'
import { ApartmentOutlined, DeleteOutlined } from '@ant-design/icons'
import { App, Button, Card, Space } from 'antd'
import { type Key, lazy, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DataTable } from '../../../components/DataTable/DataTable'
import { useListState } from '../../../components/DataTable/useListState'
import { FilterForm } from '../../../components/FilterForm/FilterForm'
import type { FilterField } from '../../../components/FilterForm/types'
import { LazyMount } from '../../../components/LazyMount'
import { useAreaLevel } from '../../../lib/useAreaLevel'
import { useSession } from '../../../lib/useSession'
import { useAgencyTree } from '../../agency/api/useAgencyTree'
import { useFactoryList } from '../api/useFactoryList'
import { ImportButton } from '../components/ImportButton'
import { useFactoryColumns } from '../components/useFactoryColumns'
import { useDeleteFactoryDevices } from '../hooks/useDeleteFactoryDevices'
import '../device.css'

const AssignModal = lazy(() => import('../components/AssignModal'))
const MODELS = [...new Set(Object.values(DEVICE_MODELS))].map((m) => ({ value: m, label: m }))

/**
 * The factory list: every device made for the subtree. Assign for super administrators who may
 * edit, import for those who may edit outside ordinary organisations, delete (unregistered only) with ALL.
 */
export function FactoryDevicesPage() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const list = useListState()
  const rows = useFactoryList(list)
  const tree = useAgencyTree()
  const { userInfo } = useSession()
  const { canEdit, canDelete } = useAreaLevel('device')
  const columns = useFactoryColumns()
  const [selected, setSelected] = useState<FactoryDevice[]>([])
  const [assigning, setAssigning] = useState<number[] | null>(null)
  const clearSelection = () => setSelected([])
  const deleteRows = useDeleteFactoryDevices(clearSelection)
  const agencyType = userInfo?.agency_type ?? AgencyType.ORDINARY
  const mayAssign = userInfo?.role_type === RoleType.SUPER_ADMIN && canEdit
  const mayImport = canEdit && agencyType !== AgencyType.ORDINARY
  const pickAgency = agencyType === AgencyType.SYSTEM || agencyType === AgencyType.GENERAL_AGENT

  const fields: FilterField[] = [
    {
      name: 'device_sn',
      title: t('device.sn'),
      type: 'input',
      placeholder: t('device.snPlaceholder'),
      maxLength: 50,
    },
    { name: 'model', title: t('device.model'), type: 'select', options: MODELS },
    {
      name: 'agency_id',
      title: t('device.agency'),
      type: 'select_search',
      options: flattenTree(tree.data ?? []).map((n) => ({ value: n.id, label: n.name })),
    },
    {
      name: 'is_register',
      title: t('device.factory.isRegister'),
      type: 'select',
      options: [
        { value: 1, label: t('device.factory.registered') },
        { value: 0, label: t('device.factory.unregistered') },
      ],
      placeholder: t('device.factory.all'),
    },
  ]

  const assign = () => {
    if (selected.length === 0) return void message.error(t('device.factory.assignEmpty'))
    setAssigning(selected.map((r) => r.id))
  }

  return (
    <div className="page" data-testid="factory-page">
      <Card className="filter-card">
        <FilterForm fields={fields} values={list.filters} onSearch={list.search} onReset={list.refresh} />
      </Card>
      <Card
        title={t('device.factory.list')}
        extra={
          <Space wrap>
            {mayImport && <ImportButton pickAgency={pickAgency} tree={tree.data ?? []} />}
            {canDelete && (
              <Button
                danger
                icon={<DeleteOutlined />}
                onClick={() => deleteRows(selected)}
                data-testid="factory-delete"
              >
                {t('device.factory.delete')}
              </Button>
            )}
            {mayAssign && (
              <Button
                type="primary"
                icon={<ApartmentOutlined />}
                onClick={assign}
                data-testid="factory-assign"
              >
                {t('device.factory.assign')}
              </Button>
            )}
          </Space>
        }
      >
        <DataTable<FactoryDevice>
          list={list}
          columns={columns}
          rowKey={(d) => d.id}
          query={rows}
          rowSelection={
            mayAssign || canDelete
              ? {
                  selectedRowKeys: selected.map((r) => r.id as Key),
                  onChange: (_keys, chosen) => setSelected(chosen),
                  preserveSelectedRowKeys: true,
                }
              : undefined
          }
        />
      </Card>
      <LazyMount when={assigning !== null}>
        <AssignModal
          ids={assigning}
          tree={tree.data ?? []}
          onClose={() => setAssigning(null)}
          onDone={clearSelection}
        />
      </LazyMount>
    </div>
  )
}
