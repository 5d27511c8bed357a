import { deviceCommandApi } from '@aed/contracts/device-command'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { commandPoll } from '../../../lib/commandPoll'
import { deviceKeys } from './keys'

/** The device's last 20 commands, newest first, refreshed every 5 s while one is on its way. */
export function useDeviceCommands(id: number, enabled: boolean) {
  return useQuery({
    queryKey: deviceKeys.commands(id),
    queryFn: ({ signal }) => callApi(deviceCommandApi.list, { params: { id }, signal }),
    enabled,
    refetchInterval: (query) => commandPoll(query.state.data),
  })
}
