import { cabinetApi } from '@aed/contracts/cabinet'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { cabinetKeys } from './keys'

/** Deletes cabinets by number, all or none (a bound one refuses the batch). */
export function useDeleteCabinets() {
  const client = useQueryClient()
  return useMutation({
    mutationFn: (cabinet_sn_list: string[]) =>
      sendApi(cabinetApi.batchDestroy, { body: { cabinet_sn_list } }),
    onSuccess: () => client.invalidateQueries({ queryKey: cabinetKeys.all }),
  })
}
