import type { UsageLogRow } from '@aed/contracts/device-detail'
import { Table } from 'antd'
import { useState } from 'react'
import { USAGE_LOG_PAGE_SIZE, useUsageLog } from '../api/useUsageLog'
import { useRecordColumns } from './useRecordColumns'

/** 使用日志: the steps of the device's rescues, 10 a page from the server. */
export function UsageLogTab({ sn, active }: { sn: string; active: boolean }) {
  const [page, setPage] = useState(1)
  const log = useUsageLog(sn, page, active)
  const { usageLog } = useRecordColumns()
  return (
    <Table<UsageLogRow>
      size="small"
      columns={usageLog}
      dataSource={log.data?.resource ?? []}
      loading={log.isFetching}
      rowKey={(r) => r.id}
      pagination={{
        current: page,
        pageSize: USAGE_LOG_PAGE_SIZE,
        total: log.data?.count ?? 0,
        hideOnSinglePage: true,
        showSizeChanger: false,
        onChange: setPage,
      }}
      data-testid="records-usage_log"
    />
  )
}
