import type { Call } from '@aed/contracts/call'
import { PlusOutlined } from '@ant-design/icons'
import { Button, Card } from 'antd'
import { lazy, useCallback, useEffect, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { useTranslation } from 'react-i18next'
import { DataTable } from '../../../components/DataTable/DataTable'
import { useListState } from '../../../components/DataTable/useListState'
import { FilterForm } from '../../../components/FilterForm/FilterForm'
import { LazyMount } from '../../../components/LazyMount'
import type { DeviceRef } from '../../../lib/deviceDetail'
import { useDict } from '../../../lib/useDict'
import { useCallDetail } from '../api/useCallDetail'
import { useCallList } from '../api/useCallList'
import { useCallLiveSync } from '../hooks/useCallLiveSync'
import { CallPanel } from './CallPanel'
import { type MapLayer, type MapPoint, PointKind } from './mapPoints'
import { useCallColumns } from './useCallColumns'
import { useCallFilterFields } from './useCallFilterFields'
import { useCallPoints } from './useCallPoints'

const NONE: readonly Call[] = []

const CallModal = lazy(() => import('./CallModal'))
const CloseCallModal = lazy(() => import('./CloseCallModal'))

export type CallTabProps = {
  /** Where the page shows the tab's filters, and what it lays over the map. */
  slots: { filters: HTMLElement | null; overlay: HTMLElement | null }
  /** The table body's height in the list pane (none until the pane is measured). */
  bodyHeight?: number
  selectedId: number | null
  onSelect: (id: number | null) => void
  onMap: (layer: MapLayer) => void
  onDevice: (device: DeviceRef) => void
  /** The linked rescue of a call, by its device. */
  onRescue: (deviceSn: string) => void
}

/**
 * 呼救事件: the filters, the list (登记呼救 by the server's can.create, 详情, 结束), and the selected
 * call on the map with the devices and responders around it and its details beside.
 */
export function CallTab({
  slots,
  bodyHeight,
  selectedId,
  onSelect,
  onMap,
  onDevice,
  onRescue,
}: CallTabProps) {
  const { t } = useTranslation()
  const { label } = useDict()
  const list = useListState(['tab'])
  const rows = useCallList(list)
  useCallLiveSync(selectedId)
  const fields = useCallFilterFields()
  const detail = useCallDetail(selectedId)
  const [panelOpen, setPanelOpen] = useState(true)
  const [focusKey, setFocusKey] = useState(0)
  const [creating, setCreating] = useState(false)
  const [closing, setClosing] = useState<Call | null>(null)
  const shown = list.cleared ? NONE : (rows.data?.resource ?? NONE)
  const { points, lines, focus } = useCallPoints(shown, selectedId, detail.data, focusKey)

  const select = (id: number | null) => {
    onSelect(id)
    setFocusKey((k) => k + 1)
    setPanelOpen(true)
  }
  const columns = useCallColumns({ onDetail: (c) => select(c.id), onClose: setClosing })
  const clicked = useRef<(p: MapPoint) => void>(() => {})
  clicked.current = (p) => {
    if (p.kind === PointKind.CALL) select(p.id)
    if (p.kind !== PointKind.NEARBY_DEVICE) return
    const near = detail.data?.devices.find((d) => d.id === p.id)
    const chosen = detail.data?.dispatch?.aeds.find((a) => a.device_id === p.id)
    const sn = near?.device_sn ?? chosen?.device_sn
    if (sn) onDevice({ id: p.id, device_sn: sn, status: 0, status_text: label('device_status', 0) })
  }
  const onPointClick = useCallback((p: MapPoint) => clicked.current(p), [])
  useEffect(() => onMap({ points, lines, focus, onPointClick }), [onMap, points, lines, focus, onPointClick])

  return (
    <>
      {slots.filters &&
        createPortal(
          <FilterForm fields={fields} values={list.filters} onSearch={list.search} onReset={list.refresh} />,
          slots.filters,
        )}
      <Card
        size="small"
        className="emergency-list"
        title={t('call.list')}
        extra={
          rows.data?.can.create && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setCreating(true)}
              data-testid="call-create"
            >
              {t('call.create')}
            </Button>
          )
        }
      >
        <DataTable<Call>
          list={list}
          size="small"
          columns={columns}
          rowKey={(c) => c.id}
          query={rows}
          bodyHeight={bodyHeight}
          activeKey={selectedId}
          onActiveChange={(c) => select(c?.id ?? null)}
        />
      </Card>
      {slots.overlay &&
        panelOpen &&
        selectedId !== null &&
        createPortal(
          <CallPanel
            detail={detail}
            onClose={() => setPanelOpen(false)}
            onDevice={(d) =>
              onDevice({
                id: d.id,
                device_sn: d.device_sn,
                status: 0,
                status_text: label('device_status', 0),
              })
            }
            onRescue={onRescue}
          />,
          slots.overlay,
        )}
      <LazyMount when={creating}>
        <CallModal open={creating} onClose={() => setCreating(false)} onCreated={(id) => select(id)} />
      </LazyMount>
      <LazyMount when={closing !== null}>
        <CloseCallModal call={closing} onClose={() => setClosing(null)} />
      </LazyMount>
    </>
  )
}
