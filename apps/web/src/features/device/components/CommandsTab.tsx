import { RoleType } from '@aed/contracts'
import { AED_CONSOLE_COMMANDS, COMMAND_LABELS } from '@aed/contracts/device-protocol'
import { AimOutlined, SafetyCertificateOutlined } from '@ant-design/icons'
import { Button, Space, Table } from 'antd'
import { useTranslation } from 'react-i18next'
import { useSession } from '../../../lib/useSession'
import { useSubmit } from '../../../lib/useSubmit'
import { useDeviceCommands } from '../api/useDeviceCommands'
import { useSendCommand } from '../api/useSendCommand'
import { useLabel } from '../hooks/useLabel'
import { useCommandColumns } from './useCommandColumns'

const ICONS = { selftest: <SafetyCertificateOutlined />, locate: <AimOutlined /> }

/** 远程指令: super administrators ask for a self-test or the location; everyone sees where the commands are. */
export function CommandsTab({ id, active }: { id: number; active: boolean }) {
  const { t } = useTranslation()
  const label = useLabel()
  const { userInfo } = useSession()
  const rows = useDeviceCommands(id, active)
  const columns = useCommandColumns()
  const send = useSendCommand(id)
  const submit = useSubmit(send)
  const canSend = userInfo?.role_type === RoleType.SUPER_ADMIN
  return (
    <>
      {canSend && (
        <div className="device-tab-actions">
          <Space>
            {AED_CONSOLE_COMMANDS.map((name) => (
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
        locale={{ emptyText: t('device.commands.empty') }}
        data-testid="device-commands"
      />
    </>
  )
}
