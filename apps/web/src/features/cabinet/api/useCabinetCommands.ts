import type { CABINET_CONSOLE_COMMANDS } from '@aed/contracts/cabinet'
import { cabinetApi } from '@aed/contracts/cabinet'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { callApi, sendApi } from '../../../lib/api'
import { commandPoll } from '../../../lib/commandPoll'
import { cabinetKeys } from './keys'

/** The cabinet's last 20 commands, refreshed every 5 s while one is on its way. */
export function useCabinetCommands(id: number | null) {
  return useQuery({
    queryKey: cabinetKeys.commands(id ?? 0),
    queryFn: ({ signal }) => callApi(cabinetApi.commands, { params: { id: id as number }, signal }),
    enabled: id !== null,
    refetchInterval: (query) => commandPoll(query.state.data),
  })
}

/** Asks a cabinet to unlock or sound its siren; refetches its command list. */
export function useSendCabinetCommand(id: number | null) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (name: (typeof CABINET_CONSOLE_COMMANDS)[number]) =>
      sendApi(cabinetApi.sendCommand, { params: { id: id as number }, body: { name } }),
    onSuccess: () => client.invalidateQueries({ queryKey: cabinetKeys.commands(id ?? 0) }),
  })
}
