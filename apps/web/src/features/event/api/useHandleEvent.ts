import { eventApi } from '@aed/contracts/event'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { deviceKeys } from '../../device/api/keys'
import { eventKeys } from './keys'

/** Marks a fault or an offset handled; refetches that page's lists and the device's record tabs. */
export function useHandleEvent() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, handle_note }: { id: number; handle_note: string }) =>
      sendApi(eventApi.handle, { params: { id }, body: { handle_note } }),
    onSuccess: ({ data }) =>
      Promise.all([
        client.invalidateQueries({ queryKey: eventKeys.kind(data.kind) }),
        client.invalidateQueries({ queryKey: deviceKeys.details() }),
      ]),
  })
}
