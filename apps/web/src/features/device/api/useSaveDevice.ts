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
    // Registering or replacing also changes the factory list's registered column. A replacement
    // answers the new device: the old one is no longer registered, so its detail (still observed by
    // the closing dialog) is left alone, not refetched into a 资源不存在 error.
    onSuccess: ({ data }, save) => {
      const gone = save.id !== null && data.id !== save.id ? deviceKeys.detail(save.id) : null
      return client.invalidateQueries({
        queryKey: deviceKeys.all,
        predicate: (q) => !gone || JSON.stringify(q.queryKey) !== JSON.stringify(gone),
      })
    },
  })
}
