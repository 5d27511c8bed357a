import type { EventKind, EventRowOf, FaultEvent, OffsetEvent } from '@aed/contracts/event'
import { useQueryClient } from '@tanstack/react-query'
import { Card, Tabs } from 'antd'
import { lazy, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { DataTable } from '../../../components/DataTable/DataTable'
import { useListState } from '../../../components/DataTable/useListState'
import { LazyMount } from '../../../components/LazyMount'
import { FilterCard } from '../../../components/ListPage/FilterCard'
import { eventKeys } from '../api/keys'
import { useEventList } from '../api/useEventList'
import { useEventLiveSync } from '../hooks/useEventLiveSync'
import { ExportButton } from './ExportButton'
import { useEventColumns } from './useEventColumns'
import { useEventFilterFields } from './useEventFilterFields'

const HandleModal = lazy(() => import('./HandleModal'))

/** The URL key of the tab: absent for 当前, 'history' for 历史. */
const TAB = 'tab'

/**
 * One event page: 当前 and 历史 tabs over the same filters (kept in the URL), the export of the
 * tab, and for faults and offsets the 处理 dialog (members who may edit devices only).
 */
export function EventsPage<K extends EventKind>({ kind }: { kind: K }) {
  const { t } = useTranslation()
  const [params, setParams] = useSearchParams()
  const client = useQueryClient()
  const current = params.get(TAB) !== 'history'
  const list = useListState([TAB])
  const rows = useEventList(kind, current, list)
  useEventLiveSync(kind)
  const fields = useEventFilterFields(kind)
  const can = rows.data?.can
  const [handling, setHandling] = useState<FaultEvent | OffsetEvent | null>(null)
  const columns = useEventColumns(kind, { current, onHandle: can?.handle ? setHandling : undefined })

  // Events open and close all the time: a tab shows what holds now, not the last visit's page.
  const switchTab = (key: string) => {
    void client.invalidateQueries({ queryKey: eventKeys.kind(kind) })
    setParams((p) => {
      const next = new URLSearchParams(p)
      if (key === 'history') next.set(TAB, 'history')
      else next.delete(TAB)
      next.delete('page')
      return next
    })
  }

  return (
    <div className="page" data-testid={`events-page-${kind}`}>
      <FilterCard list={list} fields={fields} />
      <Card
        title={t(`event.titles.${kind}`)}
        extra={can?.export && <ExportButton kind={kind} current={current} filters={list.filters} />}
      >
        <Tabs
          activeKey={current ? 'current' : 'history'}
          onChange={switchTab}
          items={[
            { key: 'current', label: <span data-testid="event-tab-current">{t('event.current')}</span> },
            { key: 'history', label: <span data-testid="event-tab-history">{t('event.history')}</span> },
          ]}
        />
        <DataTable<EventRowOf[K]> list={list} columns={columns} rowKey={(r) => r.id} query={rows} />
      </Card>
      <LazyMount when={handling !== null}>
        <HandleModal event={handling} onClose={() => setHandling(null)} />
      </LazyMount>
    </div>
  )
}
