import type { BodyIn } from '@aed/contracts'
import { deviceDetailApi } from '@aed/contracts/device-detail'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { deviceKeys } from './keys'

export type CleanBody = BodyIn<typeof deviceDetailApi.clean>

/** Deletes a device's recorded data by serial (rescues, warnings, offsets, faults) in a date range. */
export function useCleanInstallData() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: CleanBody) => sendApi(deviceDetailApi.clean, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: deviceKeys.all }),
  })
}
