import { messageApi } from '@aed/contracts/message'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { messageKeys } from './keys'
import { applyMessage } from './messageCache'

/** Confirms a message for everyone who sees it; the lists show it confirmed at once. */
export function useConfirmMessage() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (id: number) => callApi(messageApi.confirm, { params: { id }, body: {} }),
    onSuccess: ({ message }) => {
      applyMessage(client, message)
      void client.invalidateQueries({ queryKey: messageKeys.amount() })
    },
  })
}
