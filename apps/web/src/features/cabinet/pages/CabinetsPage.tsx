import type { Cabinet } from '@aed/contracts/cabinet'
import { ApartmentOutlined, DeleteOutlined } from '@ant-design/icons'
import { App, Button, Card, Space } from 'antd'
import { type Key, lazy, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DataTable } from '../../../components/DataTable/DataTable'
import { useListState } from '../../../components/DataTable/useListState'
import { FilterForm } from '../../../components/FilterForm/FilterForm'
import { LazyMount } from '../../../components/LazyMount'
import { useAreaLevel } from '../../../lib/useAreaLevel'
import { useSession } from '../../../lib/useSession'
import { useAgencyTree } from '../../agency/api/useAgencyTree'
import { useCabinetList } from '../api/useCabinetList'
import { cabinetToolbar } from '../cabinetRules'
import { CabinetImportButton } from '../components/CabinetImportButton'
import { useCabinetColumns } from '../components/useCabinetColumns'
import { useCabinetFilterFields } from '../components/useCabinetFilterFields'
import { useConfirmDeleteCabinets } from '../hooks/useConfirmDeleteCabinets'
import '../cabinet.css'

const BindModal = lazy(() => import('../components/BindModal'))
const AssignCabinetsModal = lazy(() => import('../components/AssignCabinetsModal'))
const RecordsDrawer = lazy(() => import('../components/RecordsDrawer'))
const BindHistoryModal = lazy(() => import('../components/BindHistoryModal'))

/**
 * The rescue cabinets (spec 2.3): filters, the list with the door as a state switch, bind or
 * unbind, self-check records, bind history; delete, assign and import as the server allows them.
 */
export function CabinetsPage() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const list = useListState()
  const rows = useCabinetList(list)
  const tree = useAgencyTree()
  const { userInfo } = useSession()
  const { canEdit } = useAreaLevel('device')
  const { mayDelete, mayAssign, mayImport, pickAgency } = cabinetToolbar(userInfo, canEdit)
  const [selected, setSelected] = useState<Cabinet[]>([])
  const [assigning, setAssigning] = useState<number[] | null>(null)
  const [binding, setBinding] = useState<Cabinet | null>(null)
  const [records, setRecords] = useState<Cabinet | null>(null)
  const [binds, setBinds] = useState<Cabinet | null>(null)
  const clearSelection = () => setSelected([])
  const confirmDelete = useConfirmDeleteCabinets(clearSelection)
  const columns = useCabinetColumns({ onBind: setBinding, onRecords: setRecords, onBinds: setBinds })
  const fields = useCabinetFilterFields()

  const assign = () => {
    if (selected.length === 0) return void message.error(t('cabinet.assign.empty'))
    setAssigning(selected.map((r) => r.id))
  }

  return (
    <div className="page" data-testid="cabinets-page">
      <Card className="filter-card">
        <FilterForm fields={fields} values={list.filters} onSearch={list.search} onReset={list.refresh} />
      </Card>
      <Card
        title={t('cabinet.list')}
        extra={
          <Space wrap>
            {mayImport && <CabinetImportButton pickAgency={pickAgency} tree={tree.data ?? []} />}
            {mayDelete && (
              <Button
                danger
                icon={<DeleteOutlined />}
                onClick={() => confirmDelete(selected)}
                data-testid="cabinet-delete"
              >
                {t('cabinet.remove.button')}
              </Button>
            )}
            {mayAssign && (
              <Button
                type="primary"
                icon={<ApartmentOutlined />}
                onClick={assign}
                data-testid="cabinet-assign"
              >
                {t('cabinet.assign.button')}
              </Button>
            )}
          </Space>
        }
      >
        <DataTable<Cabinet>
          list={list}
          columns={columns}
          rowKey={(c) => c.id}
          query={rows}
          rowSelection={
            mayAssign || mayDelete
              ? {
                  selectedRowKeys: selected.map((r) => r.id as Key),
                  onChange: (_keys, chosen) => setSelected(chosen),
                  preserveSelectedRowKeys: true,
                }
              : undefined
          }
        />
      </Card>
      <LazyMount when={binding !== null}>
        <BindModal cabinet={binding} onClose={() => setBinding(null)} />
      </LazyMount>
      <LazyMount when={assigning !== null}>
        <AssignCabinetsModal
          ids={assigning}
          tree={tree.data ?? []}
          onClose={() => setAssigning(null)}
          onDone={clearSelection}
        />
      </LazyMount>
      <LazyMount when={records !== null}>
        <RecordsDrawer cabinet={records} onClose={() => setRecords(null)} />
      </LazyMount>
      <LazyMount when={binds !== null}>
        <BindHistoryModal cabinet={binds} onClose={() => setBinds(null)} />
      </LazyMount>
    </div>
  )
}
