import { type CallForm, callApi as calls } from '@aed/contracts/call'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { callKeys } from './keys'

/** 登记呼救: records a call taken by phone; the lists show it next. */
export function useCreateCall() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: CallForm) => sendApi(calls.create, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: callKeys.lists() }),
  })
}
