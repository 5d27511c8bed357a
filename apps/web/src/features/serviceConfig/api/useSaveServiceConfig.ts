import type { BodyIn } from '@aed/contracts'
import { serviceConfigApi } from '@aed/contracts/service-config'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { serviceConfigKeys } from './keys'

export type ServiceConfigSave =
  | { id: null; body: BodyIn<typeof serviceConfigApi.create> }
  | { id: number; body: BodyIn<typeof serviceConfigApi.update> }

/** Gives an organisation services (id null), or changes services, state and credentials. */
export function useSaveServiceConfig() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (save: ServiceConfigSave) =>
      save.id === null
        ? sendApi(serviceConfigApi.create, { body: save.body })
        : sendApi(serviceConfigApi.update, { params: { id: save.id }, body: save.body }),
    onSuccess: () => client.invalidateQueries({ queryKey: serviceConfigKeys.all }),
  })
}
