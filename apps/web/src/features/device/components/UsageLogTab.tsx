import type { UsageLogRow } from '@aed/contracts/device-detail'
import { useState } from 'react'
import { QueryTable } from '../../../components/DataTable/QueryTable'
import { USAGE_LOG_PAGE_SIZE, useUsageLog } from '../api/useUsageLog'
import { useRecordColumns } from './useRecordColumns'

type Props = { sn: string; active: boolean; rescueEventId?: string }

/** 使用日志: the steps of the device's rescues (or of one), 10 a page from the server. */
export function UsageLogTab({ sn, active, rescueEventId }: Props) {
  const [page, setPage] = useState(1)
  const log = useUsageLog(sn, page, active, rescueEventId)
  const { usageLog } = useRecordColumns()
  return (
    <QueryTable<UsageLogRow>
      columns={usageLog}
      query={log}
      rowKey={(r) => r.id}
      paging={{ current: page, pageSize: USAGE_LOG_PAGE_SIZE, onChange: setPage }}
      data-testid="records-usage_log"
    />
  )
}
