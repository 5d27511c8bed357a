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
    // Every detail: the saved organisation may also be the member's own ('own', which the alarm
    // popup reads for alarm_sound).
    onSuccess: () => client.invalidateQueries({ queryKey: settingsKeys.details() }),
  })
}
