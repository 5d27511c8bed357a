import { AED_CONSOLE_COMMANDS } from '@aed/contracts/device-protocol'
import { CommandsPanel } from '../../../components/CommandsPanel/CommandsPanel'
import { useDeviceCommands } from '../api/useDeviceCommands'
import { useSendCommand } from '../api/useSendCommand'

type Props = {
  id: number
  active: boolean
  /** The device's `can.command` (super administrators). */
  canSend: boolean
}

/** 远程指令: those the device's `can` allows ask for a self-test or the location; everyone sees where the commands are. */
export function CommandsTab({ id, active, canSend }: Props) {
  return (
    <CommandsPanel
      names={AED_CONSOLE_COMMANDS}
      rows={useDeviceCommands(id, active)}
      send={useSendCommand(id)}
      canSend={canSend}
    />
  )
}
