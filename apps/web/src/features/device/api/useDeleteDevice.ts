import { deviceApi } from '@aed/contracts/device'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { deviceKeys } from './keys'

/**
 * Deletes a registered device's install information (the device goes back to unregistered), or
 * with `factory` a device of the factory list.
 */
export function useDeleteDevice(factory = false) {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (id: number) =>
      sendApi(deviceApi.remove, { params: { id }, query: factory ? { device_list_type: 2 } : {} }),
    onSuccess: () => client.invalidateQueries({ queryKey: deviceKeys.all }),
  })
}
