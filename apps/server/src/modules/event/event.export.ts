import { dictLabel } from '@aed/contracts/constants'
import { faultDescription } from '@aed/contracts/device-protocol'
import { type EventKind, formatDuration } from '@aed/contracts/event'
import { formatDateTime } from '../../lib/time.ts'
import type { XlsxColumn } from '../../providers/storage/xlsx.ts'
import { durationOf, installationOf, warningLabel } from './event.presenter.ts'
import type { EventRow } from './event.repository.ts'

// The columns of each page's export, in the console's (the spec's) words: what the tab shows.

type Column = XlsxColumn<EventRow>

const time = (d: Date | null) => (d ? formatDateTime(d) : null)

const device: Column[] = [
  { header: '设备SN', width: 18, value: (r) => r.device_sn },
  { header: '型号', width: 10, value: (r) => r.model },
]
const people: Column[] = [
  { header: '设备管理员', width: 12, value: (r) => r.manager_name },
  { header: '所属机构', width: 24, value: (r) => r.agency_name },
]
const installation: Column = { header: '安装位置', width: 36, value: installationOf }
const handled: Column[] = [
  { header: '处理人', width: 12, value: (r) => r.handler_name },
  { header: '处理说明', width: 36, value: (r) => r.handle_note },
  { header: '处理时间', width: 20, value: (r) => time(r.handle_time) },
]

/** The end and the duration of a history row; `ended` names the end as the page does. */
const history = (ended: string): Column[] => [
  { header: ended, width: 20, value: (r) => time(r.closed_at) },
  {
    header: '持续时长',
    width: 14,
    value: (r) => {
      const s = durationOf(r)
      return s === null ? null : formatDuration(s)
    },
  },
]

/** When the event happened, under the page's name for it. */
const happened = (header: string): Column => ({ header, width: 20, value: (r) => time(r.event_time) })

/** The export's columns of a page and tab. */
export function eventColumns(kind: EventKind, current: boolean): Column[] {
  const past = (ended: string) => (current ? [] : history(ended))
  /** A fault's or an offset's end (on history pages) and its handling. */
  const settled = (ended: string) => [...past(ended), ...handled]
  switch (kind) {
    case 'warning':
      return [
        ...device,
        installation,
        ...people,
        { header: '预警类型', width: 16, value: (r) => warningLabel(r.code, 'zh-CN') },
        { header: '预警内容', width: 30, value: (r) => r.content },
        happened('预警时间'),
        ...past('失效时间'),
      ]
    case 'fault':
      return [
        ...device,
        installation,
        ...people,
        {
          header: '检测类型',
          width: 12,
          value: (r) => (r.report_type === null ? null : dictLabel('report_type', r.report_type)),
        },
        { header: '故障', width: 30, value: (r) => `${r.code} ${faultDescription(r.code)}` },
        happened('检测时间'),
        ...settled('恢复时间'),
      ]
    case 'offset':
      return [
        ...device,
        { header: '安装位置', width: 36, value: (r) => r.install_location ?? installationOf(r) },
        { header: '偏移位置', width: 36, value: (r) => r.offset_location },
        { header: '偏移距离(米)', width: 12, value: (r) => r.offset_distance },
        ...people,
        happened('偏移时间'),
        ...settled('恢复时间'),
      ]
    case 'offline':
      return [...device, installation, ...people, happened('离线时间'), ...past('上线时间')]
  }
}
