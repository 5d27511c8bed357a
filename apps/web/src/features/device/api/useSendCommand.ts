import { type CommandForm, deviceCommandApi } from '@aed/contracts/device-command'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { deviceKeys } from './keys'

/** Asks a device for a self-test or its location; refetches its command list. */
export function useSendCommand(id: number) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (name: CommandForm['name']) =>
      sendApi(deviceCommandApi.send, { params: { id }, body: { name } }),
    onSuccess: () => client.invalidateQueries({ queryKey: deviceKeys.commands(id) }),
  })
}
