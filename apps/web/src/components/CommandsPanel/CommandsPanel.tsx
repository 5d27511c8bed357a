import type { Envelope } from '@aed/contracts'
import type { CommandRow } from '@aed/contracts/device-command'
import { COMMAND_LABELS } from '@aed/contracts/device-protocol'
import { AimOutlined, BellOutlined, SafetyCertificateOutlined, UnlockOutlined } from '@ant-design/icons'
import type { UseMutationResult, UseQueryResult } from '@tanstack/react-query'
import { Button, Space, Table } from 'antd'
import { useTranslation } from 'react-i18next'
import { useLabel } from '../../lib/useLabel'
import { useSubmit } from '../../lib/useSubmit'
import { useCommandColumns } from './useCommandColumns'

const ICONS: Partial<Record<keyof typeof COMMAND_LABELS, React.ReactNode>> = {
  selftest: <SafetyCertificateOutlined />,
  locate: <AimOutlined />,
  unlock: <UnlockOutlined />,
  siren: <BellOutlined />,
}

/**
 * Commands of a device or a cabinet: super administrators send them (the server decides in the
 * end); everyone sees where each one is and what the device answered.
 */
export function CommandsPanel<N extends keyof typeof COMMAND_LABELS>({
  names,
  rows,
  send,
  canSend,
}: {
  names: readonly N[]
  rows: UseQueryResult<CommandRow[]>
  send: UseMutationResult<Envelope<CommandRow>, Error, N>
  canSend: boolean
}) {
  const { t } = useTranslation()
  const label = useLabel()
  const columns = useCommandColumns()
  const submit = useSubmit(send)
  return (
    <>
      {canSend && (
        <div className="device-tab-actions">
          <Space>
            {names.map((name) => (
              <Button
                key={name}
                icon={ICONS[name]}
                loading={send.isPending && send.variables === name}
                disabled={send.isPending && send.variables !== name}
                onClick={() => submit(name)}
                data-testid={`command-${name}`}
              >
                {label(COMMAND_LABELS[name])}
              </Button>
            ))}
          </Space>
        </div>
      )}
      <Table
        size="small"
        columns={columns}
        dataSource={rows.data ?? []}
        loading={rows.isLoading}
        rowKey={(r) => r.cmd_id}
        pagination={false}
        locale={{ emptyText: t('commands.empty') }}
        data-testid="device-commands"
      />
    </>
  )
}
