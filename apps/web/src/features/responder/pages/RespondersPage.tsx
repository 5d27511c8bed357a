import type { Responder } from '@aed/contracts/responder'
import { Card } from 'antd'
import { lazy, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DataTable } from '../../../components/DataTable/DataTable'
import { useListState } from '../../../components/DataTable/useListState'
import { LazyMount } from '../../../components/LazyMount'
import { FilterCard } from '../../../components/ListPage/FilterCard'
import { withoutActions } from '../../../components/TableColumns/actionsColumn'
import { useRecordDialogState } from '../../../lib/useRecordDialogState'
import { useResponderList } from '../api/useResponderList'
import { ResponderDetail } from '../components/ResponderDetail'
import { ResponderMap } from '../components/ResponderMap'
import { ResponderToolbar } from '../components/ResponderToolbar'
import { useResponderColumns } from '../components/useResponderColumns'
import { useResponderFilterFields } from '../components/useResponderFilterFields'
import { useConfirmDeleteResponder } from '../hooks/useConfirmDeleteResponder'
import { useConfirmResume } from '../hooks/useConfirmResume'
import '../responder.css'

const ResponderModal = lazy(() => import('../components/ResponderModal'))
const PauseModal = lazy(() => import('../components/PauseModal'))
const RenewModal = lazy(() => import('../components/RenewModal'))

/** The spec's table scroll height: 44 (of the viewport), leaving room for the detail and map below. */
const TABLE_BODY_HEIGHT = '44vh'

/**
 * /aidManManagement/aidMan, 急救人员列表: filters, the list with export, import and 登记, and the
 * selected responder's 人员详情 and position below it.
 */
export function RespondersPage() {
  const { t } = useTranslation()
  const list = useListState()
  const rows = useResponderList(list)
  const canCreate = rows.data?.can.create ?? false
  const fields = useResponderFilterFields()
  const dialog = useRecordDialogState()
  const [activeId, setActiveId] = useState<number | null>(null)
  const [pausing, setPausing] = useState<Responder | null>(null)
  const [renewing, setRenewing] = useState<Responder | null>(null)
  const columns = useResponderColumns({
    onEdit: dialog.edit,
    onDelete: useConfirmDeleteResponder(),
    onPause: setPausing,
    onResume: useConfirmResume(),
    onRenew: setRenewing,
  })
  const shown = list.cleared ? [] : (rows.data?.resource ?? [])
  const active = shown.find((r) => r.id === activeId)
  const anyAction = shown.some((r) => r.can.edit || r.can.delete)

  return (
    <div className="page" data-testid="responders-page">
      <FilterCard list={list} fields={fields} />
      <Card
        title={t('responder.list')}
        extra={<ResponderToolbar list={list} canCreate={canCreate} onAdd={dialog.add} />}
      >
        <DataTable<Responder>
          list={list}
          columns={anyAction ? columns : withoutActions(columns)}
          rowKey={(r) => r.id}
          query={rows}
          bodyHeight={TABLE_BODY_HEIGHT}
          onActiveChange={(r) => setActiveId(r?.id ?? null)}
        />
      </Card>
      {active && (
        <div className="responder-below">
          <Card title={t('responder.detail')} size="small" className="responder-detail-card">
            <ResponderDetail id={active.id} />
          </Card>
          <Card size="small" className="responder-map-card">
            <ResponderMap
              point={active.lat !== null && active.lon !== null ? { lat: active.lat, lon: active.lon } : null}
              title={active.name}
            />
          </Card>
        </div>
      )}
      <LazyMount when={dialog.modal.open}>
        <ResponderModal {...dialog.modal} canCreate={canCreate} />
      </LazyMount>
      <LazyMount when={pausing !== null}>
        <PauseModal responder={pausing} onClose={() => setPausing(null)} />
      </LazyMount>
      <LazyMount when={renewing !== null}>
        <RenewModal responder={renewing} onClose={() => setRenewing(null)} />
      </LazyMount>
    </div>
  )
}
