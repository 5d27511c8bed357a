import { agencyApi } from '@aed/contracts/agency'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { agencyKeys } from './keys'

/** Disables an organisation with everything below it, or enables it. */
export function useSetAgencyState() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, disabled }: { id: number; disabled: boolean }) =>
      sendApi(agencyApi.setState, { params: { id }, body: { disabled } }),
    onSuccess: () => client.invalidateQueries({ queryKey: agencyKeys.all }),
  })
}
