import type { Agency } from '@aed/contracts/agency'
import { flattenTree } from '@aed/contracts/agency-rules'
import { Col, Row } from 'antd'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { DataTable } from '../../../components/DataTable/DataTable'
import { useListState } from '../../../components/DataTable/useListState'
import { selectFilter, textFilter } from '../../../components/FilterForm/fields'
import type { FilterField } from '../../../components/FilterForm/types'
import { ListCard } from '../../../components/ListCard/ListCard'
import { FilterCard } from '../../../components/ListPage/FilterCard'
import { withoutActions } from '../../../components/TableColumns/actionsColumn'
import { useRecordDialogState } from '../../../lib/useRecordDialogState'
import { useAgencyList } from '../api/useAgencyList'
import { useAgencyTree } from '../api/useAgencyTree'
import { AgencyModal } from '../components/AgencyModal'
import { AgencyTreePanel } from '../components/AgencyTreePanel'
import { useAgencyColumns } from '../components/useAgencyColumns'
import { useToggleAgency } from '../hooks/useToggleAgency'

const TREE_KEY = 'index_link'

/** /organizationalManagement/organizational: the organisation tree beside the organisation list. */
export function OrganisationsPage() {
  const { t } = useTranslation()
  const list = useListState([TREE_KEY])
  const [params, setParams] = useSearchParams()
  const indexLink = params.get(TREE_KEY)
  const rows = useAgencyList(list, indexLink)
  const tree = useAgencyTree()
  // Add and the actions column: the list's `can` (EDIT on system management); each row's actions follow its own `can`.
  const canCreate = rows.data?.can.create ?? false
  const dialog = useRecordDialogState()
  const toggle = useToggleAgency()
  const columns = useAgencyColumns({ onEdit: dialog.edit, onToggle: toggle })
  const selectedNode = flattenTree(tree.data ?? []).find((n) => n.index_link === indexLink)

  const fields: FilterField[] = [
    textFilter('name', t('agency.name'), t('agency.nameRequired')),
    selectFilter(
      'agency_type',
      t('agency.type'),
      [0, 1, 2].map((v) => ({ value: v, label: t(`agencyType.${v}`) })),
    ),
  ]
  const selectNode = (link: string | null) =>
    setParams((current) => {
      const next = new URLSearchParams(current)
      next.delete('page')
      if (link) next.set(TREE_KEY, link)
      else next.delete(TREE_KEY)
      return next
    })
  const add = canCreate ? dialog.add : undefined

  return (
    <div className="page" data-testid="organisations-page">
      <Row gutter={16} wrap={false} align="stretch">
        <Col flex="300px">
          <AgencyTreePanel
            tree={tree.data}
            loading={tree.isPending}
            selected={indexLink}
            onSelect={selectNode}
            onAdd={add}
          />
        </Col>
        <Col flex="auto" className="page-main">
          <FilterCard list={list} fields={fields} span={8} />
          <ListCard
            title={selectedNode ? `${t('agency.list')} · ${selectedNode.name}` : t('agency.list')}
            add={add && { label: t('agency.add'), onClick: add, testId: 'agency-add' }}
          >
            <DataTable<Agency>
              list={list}
              columns={canCreate ? columns : withoutActions(columns)}
              rowKey={(a) => a.id}
              query={rows}
            />
          </ListCard>
        </Col>
      </Row>
      <AgencyModal
        {...dialog.modal}
        canCreate={canCreate}
        tree={tree.data ?? []}
        defaultParent={selectedNode?.id}
      />
    </div>
  )
}
