import { reviewApi, type SysConfig } from '@aed/contracts/review'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { reviewKeys } from './keys'

/** Saves the two switches; the answer is the stored config, kept as the query's data. */
export function useSaveSysConfig() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: SysConfig) => sendApi(reviewApi.saveSysConfig, { body }),
    onSuccess: ({ data }) => client.setQueryData(reviewKeys.sysConfig, data),
  })
}
