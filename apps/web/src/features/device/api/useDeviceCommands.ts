import { type CommandRow, deviceCommandApi } from '@aed/contracts/device-command'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { deviceKeys } from './keys'

/** While a command waits for the device or its answer, the list refreshes this often. */
export const COMMAND_POLL_MS = 5000

/** How soon to ask again: every 5 s while a command waits for the device or its answer, else not. */
export function commandPoll(rows: CommandRow[] | undefined): number | false {
  return rows?.some((c) => c.state === 'pending' || c.state === 'sent') ? COMMAND_POLL_MS : false
}

/** The device's last 20 commands, newest first, refreshed every 5 s while one is on its way. */
export function useDeviceCommands(id: number, enabled: boolean) {
  return useQuery({
    queryKey: deviceKeys.commands(id),
    queryFn: ({ signal }) => callApi(deviceCommandApi.list, { params: { id }, signal }),
    enabled,
    refetchInterval: (query) => commandPoll(query.state.data),
  })
}
