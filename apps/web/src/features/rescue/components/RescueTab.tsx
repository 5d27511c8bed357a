import type { RescueRow } from '@aed/contracts/rescue'
import { Card } from 'antd'
import { useEffect } from 'react'
import { createPortal } from 'react-dom'
import { useTranslation } from 'react-i18next'
import { DataTable } from '../../../components/DataTable/DataTable'
import { useListState } from '../../../components/DataTable/useListState'
import { FilterForm } from '../../../components/FilterForm/FilterForm'
import { useEcgDownload } from '../api/useEcgDownload'
import { useRescueList } from '../api/useRescueList'
import { useRescueLiveSync } from '../hooks/useRescueLiveSync'
import { useRescueColumns } from './useRescueColumns'
import { useRescueFilterFields } from './useRescueFilterFields'

export type RescueTabProps = {
  /** Where the page shows the tab's filters. */
  filterSlot: HTMLElement | null
  /** The table body's height in the list pane (none until the pane is measured). */
  bodyHeight?: number
  selectedId: number | null
  onSelect: (row: RescueRow | undefined) => void
  /** The rows shown, for the page's map. */
  onRows: (rows: readonly RescueRow[]) => void
  onCall: (callId: number) => void
  /** The device's detail, scoped to this rescue. */
  onDevice: (row: RescueRow) => void
}

const NONE: readonly RescueRow[] = []

/** 急救事件: the filters and the list of rescues, with the linked call, the AED's return, the ECG and the device. */
export function RescueTab({
  filterSlot,
  bodyHeight,
  selectedId,
  onSelect,
  onRows,
  onCall,
  onDevice,
}: RescueTabProps) {
  const { t } = useTranslation()
  const list = useListState(['tab'])
  const rows = useRescueList(list)
  useRescueLiveSync()
  const fields = useRescueFilterFields()
  const ecg = useEcgDownload()
  const columns = useRescueColumns({ onEcg: (r) => ecg.mutate(r), onDevice, onCall })
  const shown = list.cleared ? NONE : (rows.data?.resource ?? NONE)
  useEffect(() => onRows(shown), [onRows, shown])

  return (
    <>
      {filterSlot &&
        createPortal(
          <FilterForm fields={fields} values={list.filters} onSearch={list.search} onReset={list.refresh} />,
          filterSlot,
        )}
      <Card size="small" className="emergency-list" title={t('rescue.list')}>
        <DataTable<RescueRow>
          list={list}
          size="small"
          columns={columns}
          rowKey={(r) => r.id}
          query={rows}
          bodyHeight={bodyHeight}
          activeKey={selectedId}
          onActiveChange={onSelect}
        />
      </Card>
    </>
  )
}
