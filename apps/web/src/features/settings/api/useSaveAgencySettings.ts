import type { BodyIn } from '@aed/contracts'
import { settingsApi } from '@aed/contracts/settings'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { settingsKeys } from './keys'

/** Saves the whole settings object of an organisation; answers the server's message. */
export function useSaveAgencySettings() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: BodyIn<typeof settingsApi.save>) => sendApi(settingsApi.save, { body }),
    onSuccess: (_, body) =>
      client.invalidateQueries({ queryKey: settingsKeys.detail(body.agency_id ?? 'own') }),
  })
}
