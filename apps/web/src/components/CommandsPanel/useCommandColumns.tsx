import type { CommandRow } from '@aed/contracts/device-command'
import { COMMAND_LABELS, COMMAND_STATE_LABELS, type CommandState } from '@aed/contracts/device-protocol'
import { Tag } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../lib/datetime'
import { useLabel } from '../../lib/useLabel'

/** Waiting grey, delivered blue, done green, failed red, expired orange. */
export const COMMAND_STATE_COLORS: Record<CommandState, string> = {
  pending: 'default',
  sent: 'processing',
  done: 'green',
  failed: 'red',
  expired: 'orange',
}

const time = (v: string | null) => (v ? formatDateTime(v) : '-')
const TIME_WIDTH = 104

/** The columns of a command list (a device's detail, a cabinet's commands). */
export function useCommandColumns(): ColumnsType<CommandRow> {
  const { t } = useTranslation()
  const label = useLabel()
  const c = (key: string) => t(`commands.${key}`)
  return [
    {
      title: c('name'),
      dataIndex: 'name',
      width: 100,
      render: (v: CommandRow['name']) => label(COMMAND_LABELS[v]),
    },
    {
      title: c('state'),
      dataIndex: 'state',
      width: 100,
      render: (v: CommandState) => (
        <Tag color={COMMAND_STATE_COLORS[v]} data-testid={`command-state-${v}`}>
          {label(COMMAND_STATE_LABELS[v])}
        </Tag>
      ),
    },
    { title: c('creator'), dataIndex: 'creator_name', width: 120, render: (v: string | null) => v || '-' },
    // Times wrap after the date, so the whole list fits the drawer and the error keeps the rest.
    { title: c('created'), dataIndex: 'create_time', width: TIME_WIDTH, render: time },
    { title: c('sent'), dataIndex: 'sent_at', width: TIME_WIDTH, render: time },
    { title: c('answered'), dataIndex: 'ack_time', width: TIME_WIDTH, render: time },
    { title: c('error'), dataIndex: 'error', render: (v: string | null) => v || '-' },
    { title: c('expires'), dataIndex: 'expires_at', width: TIME_WIDTH, render: time },
  ]
}
