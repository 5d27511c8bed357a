import type { BodyIn } from '@aed/contracts'
import { appServiceApi } from '@aed/contracts/app-service'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { appServiceKeys } from './keys'

export type ServiceConfigSave =
  | { id: null; body: BodyIn<typeof appServiceApi.create> }
  | { id: number; body: BodyIn<typeof appServiceApi.update> }

/** Gives an organisation services (id null), or changes services, state and credentials. */
export function useSaveServiceConfig() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (save: ServiceConfigSave) =>
      save.id === null
        ? sendApi(appServiceApi.create, { body: save.body })
        : sendApi(appServiceApi.update, { params: { id: save.id }, body: save.body }),
    onSuccess: () => client.invalidateQueries({ queryKey: appServiceKeys.all }),
  })
}
