import type { EventKind, EventRowOf, FaultEvent, OffsetEvent } from '@aed/contracts/event'
import type { ColumnsType, ColumnType } from 'antd/es/table'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { DeviceStatusTag } from '../../../components/DeviceStatusTag/DeviceStatusTag'
import { actionsColumn } from '../../../components/TableColumns/actionsColumn'
import { formatDateTime } from '../../../lib/datetime'
import { useDict } from '../../../lib/useDict'

/** The device status each page's current events stand for (its colour: spec section 9). */
export const KIND_STATUS: Record<EventKind, number> = { warning: 1, fault: 2, offset: 3, offline: 4 }

type Options = {
  current: boolean
  /** Opens the note dialog; absent for members who may not handle. */
  onHandle?: (row: FaultEvent | OffsetEvent) => void
}

/** The columns of an event page's tab: the shared ones, the kind's own, history's end and duration. */
export function useEventColumns<K extends EventKind>(kind: K, { current, onHandle }: Options) {
  const { t } = useTranslation()
  const { label } = useDict()
  const e = (key: string) => t(`event.${key}`)
  const dash = t('table.empty')
  const text = (v: string | null) => v || dash
  const time = (v: string | null) => (v ? formatDateTime(v) : dash)
  type Row = EventRowOf[EventKind]
  const col = (
    title: string,
    dataIndex: string,
    width: number,
    render: (v: string | null) => ReactNode = text,
    ellipsis = false,
  ): ColumnType<Row> => ({ title, dataIndex, width, ellipsis, render: (v: string | null) => render(v) })

  // From the row, not the tab: the previous tab's rows stay on screen while the next one loads.
  const status: ColumnType<Row> = {
    title: e('status'),
    key: 'status',
    width: 100,
    render: (_, r) =>
      r.closed_at ? (
        <DeviceStatusTag status={0} text={e('recovered')} />
      ) : (
        <DeviceStatusTag status={KIND_STATUS[kind]} text={label('device_status', KIND_STATUS[kind])} />
      ),
  }
  const device: ColumnsType<Row> = [
    { title: e('sn'), dataIndex: 'device_sn', width: 140, fixed: 'left' },
    col(e('model'), 'model', 80),
    status,
  ]
  const people: ColumnsType<Row> = [
    col(e('manager'), 'manager', 130),
    col(e('agency'), 'agency_name', 180, text, true),
  ]
  const site = col(e('location'), 'location', 220, text, true)
  const ended = (title: string): ColumnsType<Row> =>
    current ? [] : [col(title, 'closed_at', 170, time), col(e('duration'), 'duration_text', 110)]
  const handled: ColumnsType<Row> = [
    col(e('handler'), 'handler_name', 130),
    col(e('handleNote'), 'handle_note', 200, text, true),
    col(e('handleTime'), 'handle_time', 170, time),
    ...(onHandle
      ? [
          actionsColumn<Row>(t('table.actions'), 90, (r) => {
            const row = r as FaultEvent | OffsetEvent
            return [
              {
                label: e('handle'),
                onClick: () => onHandle(row),
                testId: `event-handle-${row.id}`,
                show: row.can.handle,
              },
            ]
          }),
        ]
      : []),
  ]

  const byKind: Record<EventKind, ColumnsType<Row>> = {
    warning: [
      ...device,
      site,
      ...people,
      col(e('eventType'), 'event_type', 130),
      col(e('content'), 'content', 200, text, true),
      col(e('eventTime'), 'event_time', 170, time),
      ...ended(e('invalidTime')),
    ],
    fault: [
      ...device,
      site,
      ...people,
      col(e('reportType'), 'report_type_text', 110),
      col(e('fault'), 'fault', 200, text, true),
      col(e('checkTime'), 'check_time', 170, time),
      ...ended(e('recoverTime')),
      ...handled,
    ],
    offset: [
      ...device,
      {
        ...col(e('location'), 'install_location', 220, text, true),
        render: (v: string | null, r: Row) => v || (r as OffsetEvent).location || dash,
      },
      col(e('offsetLocation'), 'offset_location', 220, text, true),
      {
        ...col(e('offsetDistance'), 'offset_distance', 100),
        render: (v: number | null) => (v === null ? dash : t('event.metres', { value: v })),
      },
      ...people,
      col(e('offsetTime'), 'event_time', 170, time),
      col(e('seenBy'), 'seen_by', 110),
      ...ended(e('recoverTime')),
      ...handled,
    ],
    offline: [
      ...device,
      site,
      ...people,
      col(e('offlineTime'), 'offline_time', 170, time),
      ...ended(e('onlineTime')),
    ],
  }
  return byKind[kind] as ColumnsType<EventRowOf[K]>
}
