import { type CallCloseForm, callApi as calls } from '@aed/contracts/call'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { callKeys } from './keys'

/** 结束: closes an open call with its outcome. */
export function useCloseCall() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: CallCloseForm }) =>
      sendApi(calls.close, { params: { id }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: callKeys.all }),
  })
}
