import { RoleType } from '@aed/contracts'
import { AED_CONSOLE_COMMANDS } from '@aed/contracts/device-protocol'
import { CommandsPanel } from '../../../components/CommandsPanel/CommandsPanel'
import { useSession } from '../../../lib/useSession'
import { useDeviceCommands } from '../api/useDeviceCommands'
import { useSendCommand } from '../api/useSendCommand'

/** 远程指令: super administrators ask for a self-test or the location; everyone sees where the commands are. */
export function CommandsTab({ id, active }: { id: number; active: boolean }) {
  const { userInfo } = useSession()
  return (
    <CommandsPanel
      names={AED_CONSOLE_COMMANDS}
      rows={useDeviceCommands(id, active)}
      send={useSendCommand(id)}
      canSend={userInfo?.role_type === RoleType.SUPER_ADMIN}
    />
  )
}
