import type { RescueRow } from '@aed/contracts/rescue'
import type { ColumnsType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import { actionsColumn } from '../../../components/TableColumns/actionsColumn'
import { formatDateTime } from '../../../lib/datetime'
import { ReturnStateTag } from './ReturnStateTag'

type Actions = {
  onEcg: (r: RescueRow) => void
  onDevice: (r: RescueRow) => void
  onCall: (callId: number) => void
}

/** Columns of the rescue list (spec 3), with the linked call, the AED's return, 心电图下载 and 设备详情. */
export function useRescueColumns({ onEcg, onDevice, onCall }: Actions): ColumnsType<RescueRow> {
  const { t } = useTranslation()
  const dash = t('table.empty')
  const text = (v: string | number | null) => (v === null || v === '' ? dash : v)
  return [
    {
      title: t('rescue.eventLocation'),
      dataIndex: 'event_location',
      width: 220,
      ellipsis: true,
      render: text,
    },
    { title: t('rescue.eventTime'), dataIndex: 'event_time', width: 170, render: (v) => formatDateTime(v) },
    { title: t('rescue.deviceSn'), dataIndex: 'device_sn', width: 130 },
    { title: t('rescue.model'), dataIndex: 'model', width: 90 },
    { title: t('rescue.location'), dataIndex: 'location', width: 200, ellipsis: true, render: text },
    { title: t('rescue.name'), dataIndex: 'name', width: 140, ellipsis: true, render: text },
    { title: t('rescue.agency'), dataIndex: 'agency_name', width: 160, ellipsis: true, render: text },
    { title: t('rescue.lat'), dataIndex: 'event_lat', width: 100, render: text },
    { title: t('rescue.lon'), dataIndex: 'event_lon', width: 110, render: text },
    {
      title: t('rescue.call'),
      dataIndex: 'call',
      width: 110,
      render: (call: RescueRow['call']) =>
        call ? (
          <button
            type="button"
            className="link-button"
            title={`${formatDateTime(call.call_time)} ${call.location}`}
            onClick={(e) => {
              e.stopPropagation()
              onCall(call.id)
            }}
            data-testid={`rescue-call-${call.id}`}
          >
            #{call.id}
          </button>
        ) : (
          dash
        ),
    },
    {
      title: t('rescue.returnState'),
      dataIndex: 'return_state',
      width: 110,
      render: (v: RescueRow['return_state']) => <ReturnStateTag state={v} />,
    },
    actionsColumn<RescueRow>(t('table.actions'), 190, (r) => [
      { label: t('rescue.ecg'), onClick: () => onEcg(r), testId: `rescue-ecg-${r.id}` },
      { label: t('rescue.device'), onClick: () => onDevice(r), testId: `rescue-device-${r.id}` },
    ]),
  ]
}
