import type { Agency, AgencyForm } from '@aed/contracts/agency'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { http } from '../../../lib/request'
import { agencyKey } from './useAgencyTree'

/** POST /api/v1/agency/ (new) or PUT /api/v1/agency/{id}; answers the server's message. */
export function useSaveAgency() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, form }: { id: number | null; form: AgencyForm }) =>
      id === null
        ? http.send<Agency>('POST', '/v1/agency/', form)
        : http.send<Agency>('PUT', `/v1/agency/${id}`, form),
    onSuccess: () => client.invalidateQueries({ queryKey: agencyKey }),
  })
}
