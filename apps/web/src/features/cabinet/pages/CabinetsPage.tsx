import type { Cabinet } from '@aed/contracts/cabinet'
import { Card } from 'antd'
import { lazy, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DataTable } from '../../../components/DataTable/DataTable'
import { useBulkSelection } from '../../../components/DataTable/useBulkSelection'
import { useListState } from '../../../components/DataTable/useListState'
import { LazyMount } from '../../../components/LazyMount'
import { BulkActions } from '../../../components/ListCard/BulkActions'
import { FilterCard } from '../../../components/ListPage/FilterCard'
import { useAgencyTree } from '../../agency/api/useAgencyTree'
import { useCabinetList } from '../api/useCabinetList'
import { CabinetImportButton } from '../components/CabinetImportButton'
import { useCabinetColumns } from '../components/useCabinetColumns'
import { useCabinetFilterFields } from '../components/useCabinetFilterFields'
import { useCabinetLiveSync } from '../hooks/useCabinetLiveSync'
import { useConfirmDeleteCabinets } from '../hooks/useConfirmDeleteCabinets'
import '../cabinet.css'

const BindModal = lazy(() => import('../components/BindModal'))
const AssignCabinetsModal = lazy(() => import('../components/AssignCabinetsModal'))
const RecordsDrawer = lazy(() => import('../components/RecordsDrawer'))
const CommandsDrawer = lazy(() => import('../components/CommandsDrawer'))
const BindHistoryModal = lazy(() => import('../components/BindHistoryModal'))

/**
 * The rescue cabinets (spec 2.3): filters, the list with the door as a state switch, bind or
 * unbind, self-check records, bind history; delete, assign and import as the list's `can` allows them.
 * Doors, connections and the bound AEDs' status follow live pushes (useCabinetLiveSync).
 */
export function CabinetsPage() {
  const { t } = useTranslation()
  const list = useListState()
  const rows = useCabinetList(list)
  useCabinetLiveSync(rows.data?.resource.map((c) => c.device_sn) ?? [])
  const tree = useAgencyTree()
  const can = rows.data?.can
  const mayDelete = can?.delete ?? false
  const mayAssign = can?.assign ?? false
  const { selected, clearSelection, assigning, assign, closeAssign, rowSelection } =
    useBulkSelection<Cabinet>(t('cabinet.assign.empty'))
  const [binding, setBinding] = useState<Cabinet | null>(null)
  const [records, setRecords] = useState<Cabinet | null>(null)
  const [commands, setCommands] = useState<Cabinet | null>(null)
  const [binds, setBinds] = useState<Cabinet | null>(null)
  const confirmDelete = useConfirmDeleteCabinets(clearSelection)
  const columns = useCabinetColumns({
    onBind: setBinding,
    onRecords: setRecords,
    onBinds: setBinds,
    onCommands: setCommands,
  })
  const fields = useCabinetFilterFields()

  return (
    <div className="page" data-testid="cabinets-page">
      <FilterCard list={list} fields={fields} />
      <Card
        title={t('cabinet.list')}
        extra={
          <BulkActions
            remove={
              mayDelete && {
                label: t('cabinet.remove.button'),
                onClick: () => confirmDelete(selected),
                testId: 'cabinet-delete',
              }
            }
            assign={
              mayAssign && { label: t('cabinet.assign.button'), onClick: assign, testId: 'cabinet-assign' }
            }
          >
            {can?.import && <CabinetImportButton tree={tree.data ?? []} />}
          </BulkActions>
        }
      >
        <DataTable<Cabinet>
          list={list}
          columns={columns}
          rowKey={(c) => c.id}
          query={rows}
          rowSelection={rowSelection(mayAssign || mayDelete)}
        />
      </Card>
      <LazyMount when={binding !== null}>
        <BindModal cabinet={binding} onClose={() => setBinding(null)} />
      </LazyMount>
      <LazyMount when={assigning !== null}>
        <AssignCabinetsModal
          ids={assigning}
          tree={tree.data ?? []}
          onClose={closeAssign}
          onDone={clearSelection}
        />
      </LazyMount>
      <LazyMount when={commands !== null}>
        <CommandsDrawer cabinet={commands} onClose={() => setCommands(null)} />
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
