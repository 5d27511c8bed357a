import type { BodyIn } from '@aed/contracts'
import { deviceApi } from '@aed/contracts/device'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { deviceKeys } from './keys'

/** Assigns factory devices to an organisation of the subtree. */
export function useAssignDevices() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: BodyIn<typeof deviceApi.assign>) => sendApi(deviceApi.assign, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: deviceKeys.all }),
  })
}
