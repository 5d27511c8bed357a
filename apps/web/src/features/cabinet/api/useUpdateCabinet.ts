import type { BodyIn } from '@aed/contracts'
import { cabinetApi } from '@aed/contracts/cabinet'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { cabinetKeys } from './keys'

type Update = { id: number; body: BodyIn<typeof cabinetApi.update> }

/** Binds an AED to a cabinet (update_type 2) or unbinds it (3); the list and its records refresh. */
export function useUpdateCabinet() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: ({ id, body }: Update) => sendApi(cabinetApi.update, { params: { id }, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: cabinetKeys.all }),
  })
}
