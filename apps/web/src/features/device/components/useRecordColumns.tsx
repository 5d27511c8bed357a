import type {
  DetectRow,
  EarlyWarnRow,
  FaultRow,
  InspectRow,
  OffsetRow,
  UsageLogRow,
} from '@aed/contracts/device-detail'
import { Image, Space, Tag } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../../lib/datetime'
import { useDict } from '../../../lib/useDict'

const time = (v: string | null) => (v ? formatDateTime(v) : '-')
const text = (v: string | null) => v || '-'

/** The columns of each record tab of the detail. */
export function useRecordColumns() {
  const { t } = useTranslation()
  const { label } = useDict()
  const r = (key: string) => t(`device.records.${key}`)
  const earlyWarn: ColumnsType<EarlyWarnRow> = [
    { title: r('eventCode'), dataIndex: 'event_code', width: 110 },
    { title: r('eventType'), dataIndex: 'event_type', width: 140 },
    { title: r('content'), dataIndex: 'content', ellipsis: true, render: text },
    { title: r('eventTime'), dataIndex: 'event_time', width: 170, render: time },
    { title: r('invalidTime'), dataIndex: 'invalid_time', width: 170, render: time },
  ]
  const offset: ColumnsType<OffsetRow> = [
    { title: r('installLocation'), dataIndex: 'install_location', ellipsis: true, render: text },
    { title: r('offsetLocation'), dataIndex: 'offset_location', ellipsis: true, render: text },
    {
      title: r('offsetDistance'),
      dataIndex: 'offset_distance',
      width: 110,
      render: (v: number | null) => (v === null ? '-' : `${v} m`),
    },
    { title: r('eventTime'), dataIndex: 'event_time', width: 170, render: time },
    { title: r('recoverTime'), dataIndex: 'recover_time', width: 170, render: time },
  ]
  const fault: ColumnsType<FaultRow> = [
    { title: r('reportType'), dataIndex: 'report_type_text', width: 110, render: text },
    { title: r('faultCode'), dataIndex: 'fault_code', width: 100 },
    { title: r('faultDesc'), dataIndex: 'fault_desc', ellipsis: true, render: text },
    { title: r('checkTime'), dataIndex: 'check_time', width: 170, render: time },
    { title: r('recoverTime'), dataIndex: 'recover_time', width: 170, render: time },
    { title: r('handler'), dataIndex: 'handler_name', width: 100, render: text },
  ]
  const detect: ColumnsType<DetectRow> = [
    { title: r('reportType'), dataIndex: 'report_type_text', width: 120 },
    {
      title: r('checkResult'),
      dataIndex: 'check_result',
      width: 100,
      render: (v: number) =>
        v === 1 ? <Tag color="green">{r('passed')}</Tag> : <Tag color="red">{r('failed')}</Tag>,
    },
    {
      title: r('faultCode'),
      dataIndex: 'fault_codes',
      render: (v: string[]) => (v.length ? v.join('、') : '-'),
    },
    {
      title: t('device.battery'),
      dataIndex: 'battery',
      width: 90,
      render: (v: number | null) => (v === null ? '-' : `${v}%`),
    },
    { title: r('checkTime'), dataIndex: 'check_time', width: 170, render: time },
  ]
  const inspect: ColumnsType<InspectRow> = [
    {
      title: r('inspectStatus'),
      dataIndex: 'inspect_status',
      width: 100,
      render: (v: number) => <Tag color={v === 1 ? 'green' : 'red'}>{label('inspect_status', v)}</Tag>,
    },
    { title: r('processContent'), dataIndex: 'process_content', ellipsis: true, render: text },
    { title: r('inspector'), dataIndex: 'inspector_name', width: 110 },
    { title: r('inspectTime'), dataIndex: 'inspect_time', width: 170, render: time },
    {
      title: r('img'),
      dataIndex: 'imgs',
      width: 120,
      render: (v: string[]) =>
        v.length ? (
          <Image.PreviewGroup>
            <Space size={4}>
              {v.map((url) => (
                <Image key={url} src={url} width={48} height={32} alt="" />
              ))}
            </Space>
          </Image.PreviewGroup>
        ) : (
          '-'
        ),
    },
  ]
  const usageLog: ColumnsType<UsageLogRow> = [
    { title: r('rescueEvent'), dataIndex: 'rescue_event_id', width: 170 },
    { title: r('eventDesc'), dataIndex: 'event_desc', ellipsis: true },
    { title: r('eventPara'), dataIndex: 'event_para', width: 160, render: text },
    { title: r('eventTime'), dataIndex: 'event_time', width: 170, render: time },
  ]
  return { earlyWarn, offset, fault, detect, inspect, usageLog }
}
