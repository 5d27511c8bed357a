import { useMutation, useQueryClient } from '@tanstack/react-query'
import { http } from '../../../lib/request'
import { agencyKey } from './useAgencyTree'

/** PUT /api/v1/agency/{id}/state/: disables an organisation with everything below it, or enables it. */
export function useSetAgencyState() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, disabled }: { id: number; disabled: boolean }) =>
      http.send<{ id: number; name: string; disabled: boolean }>('PUT', `/v1/agency/${id}/state/`, {
        disabled,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: agencyKey }),
  })
}
