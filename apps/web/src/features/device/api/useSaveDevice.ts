import type { BodyIn } from '@aed/contracts'
import { deviceApi } from '@aed/contracts/device'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { deviceKeys } from './keys'

export type DeviceBody = BodyIn<typeof deviceApi.register>
export type DeviceUpdateBody = BodyIn<typeof deviceApi.update>

export type SaveDevice = { id: null; body: DeviceBody } | { id: number; body: DeviceUpdateBody }

/** Registers a device of the factory list (id null) or changes an installed one; answers the server's message. */
export function useSaveDevice() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (save: SaveDevice) =>
      save.id === null
        ? sendApi(deviceApi.register, { body: save.body })
        : sendApi(deviceApi.update, { params: { id: save.id }, body: save.body }),
    // Registering or replacing also changes the factory list's registered column.
    onSuccess: () => client.invalidateQueries({ queryKey: deviceKeys.all }),
  })
}
