import type { OperationLog } from '@aed/contracts/operation-log'
import { Card, Tag } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import { DataTable } from '../../../components/DataTable/DataTable'
import { useListState } from '../../../components/DataTable/useListState'
import { textFilter } from '../../../components/FilterForm/fields'
import type { FilterField } from '../../../components/FilterForm/types'
import { FilterCard } from '../../../components/ListPage/FilterCard'
import { dateTimeColumn } from '../../../components/TableColumns/dateTimeColumn'
import { useOperationLogList } from '../api/useOperationLogList'
import { ExportButton } from '../components/ExportButton'
import { DEFAULT_LOG_PRESET, logPresets } from '../logQuery'

/** /systemManagement/operationLog: the system operation log with filters and export. */
export function OperationLogPage() {
  const { t } = useTranslation()
  const list = useListState()
  const rows = useOperationLogList(list)
  const fields: FilterField[] = [
    textFilter('operator', t('operationLog.operator'), t('operationLog.operatorPlaceholder')),
    textFilter('content', t('operationLog.content'), t('operationLog.contentPlaceholder'), 100),
    {
      name: 'time',
      title: t('operationLog.time'),
      type: 'custom_time_select',
      presets: logPresets((days) => t('operationLog.lastDays', { count: days })),
      initialValue: DEFAULT_LOG_PRESET,
    },
  ]
  const columns: ColumnsType<OperationLog> = [
    { title: t('operationLog.operator'), dataIndex: 'operator', width: 160, ellipsis: true },
    {
      title: t('operationLog.type'),
      dataIndex: 'operation_type',
      width: 160,
      render: (v: string) => <Tag>{v}</Tag>,
    },
    { title: t('operationLog.content'), dataIndex: 'content', width: 520, ellipsis: true },
    {
      title: t('operationLog.agency'),
      dataIndex: 'agency_name',
      width: 220,
      ellipsis: true,
      render: (v: string | null) => v || t('table.empty'),
    },
    dateTimeColumn<OperationLog>(t('operationLog.time'), 'create_time', 180),
  ]

  return (
    <div className="page" data-testid="operation-log-page">
      <FilterCard list={list} fields={fields} />
      <Card title={t('operationLog.title')} extra={<ExportButton filters={list.filters} />}>
        <DataTable<OperationLog> list={list} columns={columns} rowKey={(l) => l.id} query={rows} />
      </Card>
    </div>
  )
}
