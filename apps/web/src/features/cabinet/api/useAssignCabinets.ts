import type { BodyIn } from '@aed/contracts'
import { cabinetApi } from '@aed/contracts/cabinet'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { cabinetKeys } from './keys'

/** Assigns the chosen cabinets to an organisation of the subtree (all or nothing). */
export function useAssignCabinets() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (body: BodyIn<typeof cabinetApi.assign>) => sendApi(cabinetApi.assign, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: cabinetKeys.all }),
  })
}
