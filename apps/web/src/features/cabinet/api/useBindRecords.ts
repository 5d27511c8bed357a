import { cabinetApi } from '@aed/contracts/cabinet'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { cabinetKeys } from './keys'

export const BIND_PAGE_SIZE = 20

/** A page of a cabinet's bind records (assign, bind, unbind), newest first. */
export function useBindRecords(id: number | null, page: number) {
  return useQuery({
    queryKey: cabinetKeys.binds(id ?? 0, page),
    queryFn: ({ signal }) =>
      callApi(cabinetApi.bindRecord, {
        query: { cabinet_id: id ?? 0, page, page_size: BIND_PAGE_SIZE },
        signal,
      }),
    enabled: id !== null,
    placeholderData: keepPreviousData,
  })
}
