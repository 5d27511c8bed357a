import { DEVICE_MODELS } from '@aed/contracts/constants'
import type { FactoryDevice } from '@aed/contracts/device'
import { Card } from 'antd'
import { lazy } from 'react'
import { useTranslation } from 'react-i18next'
import { DataTable } from '../../../components/DataTable/DataTable'
import { useBulkSelection } from '../../../components/DataTable/useBulkSelection'
import { useListState } from '../../../components/DataTable/useListState'
import type { FilterField } from '../../../components/FilterForm/types'
import { LazyMount } from '../../../components/LazyMount'
import { BulkActions } from '../../../components/ListCard/BulkActions'
import { FilterCard } from '../../../components/ListPage/FilterCard'
import { useAgencyTree } from '../../agency/api/useAgencyTree'
import { useFactoryList } from '../api/useFactoryList'
import { ImportButton } from '../components/ImportButton'
import { useFactoryColumns } from '../components/useFactoryColumns'
import { useDeleteFactoryDevices } from '../hooks/useDeleteFactoryDevices'
import '../device.css'
import { agencyFilter, selectFilter, textFilter } from '../../../components/FilterForm/fields'

const AssignModal = lazy(() => import('../components/AssignModal'))
const MODELS = [...new Set(Object.values(DEVICE_MODELS))].map((m) => ({ value: m, label: m }))

/**
 * The factory list: every device made for the subtree. Assign, import and delete (unregistered
 * only) as the list's `can` allows them.
 */
export function FactoryDevicesPage() {
  const { t } = useTranslation()
  const list = useListState()
  const rows = useFactoryList(list)
  const tree = useAgencyTree()
  const columns = useFactoryColumns()
  const { selected, clearSelection, assigning, assign, closeAssign, rowSelection } =
    useBulkSelection<FactoryDevice>(t('device.factory.assignEmpty'))
  const deleteRows = useDeleteFactoryDevices(clearSelection)
  const can = rows.data?.can
  const mayAssign = can?.assign ?? false
  const mayDelete = can?.delete ?? false

  const fields: FilterField[] = [
    textFilter('device_sn', t('device.sn'), t('device.snPlaceholder')),
    selectFilter('model', t('device.model'), MODELS),
    agencyFilter(t('device.agency'), tree.data ?? []),
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

  return (
    <div className="page" data-testid="factory-page">
      <FilterCard list={list} fields={fields} />
      <Card
        title={t('device.factory.list')}
        extra={
          <BulkActions
            remove={
              mayDelete && {
                label: t('device.factory.delete'),
                onClick: () => deleteRows(selected),
                testId: 'factory-delete',
              }
            }
            assign={
              mayAssign && { label: t('device.factory.assign'), onClick: assign, testId: 'factory-assign' }
            }
          >
            {can?.import && <ImportButton tree={tree.data ?? []} />}
          </BulkActions>
        }
      >
        <DataTable<FactoryDevice>
          list={list}
          columns={columns}
          rowKey={(d) => d.id}
          query={rows}
          rowSelection={rowSelection(mayAssign || mayDelete)}
        />
      </Card>
      <LazyMount when={assigning !== null}>
        <AssignModal ids={assigning} tree={tree.data ?? []} onClose={closeAssign} onDone={clearSelection} />
      </LazyMount>
    </div>
  )
}
