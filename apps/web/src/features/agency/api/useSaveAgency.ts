import { type AgencyForm, agencyApi } from '@aed/contracts/agency'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { agencyKeys } from './keys'

/** Creates an organisation (id null) or modifies one; answers the server's message. */
export function useSaveAgency() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, form }: { id: number | null; form: AgencyForm }) =>
      id === null
        ? sendApi(agencyApi.create, { body: form })
        : sendApi(agencyApi.update, { params: { id }, body: form }),
    onSuccess: () => client.invalidateQueries({ queryKey: agencyKeys.all }),
  })
}
