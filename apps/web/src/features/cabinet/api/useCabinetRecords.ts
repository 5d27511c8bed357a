import { cabinetApi } from '@aed/contracts/cabinet'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { cabinetKeys } from './keys'

export const RECORD_PAGE_SIZE = 10

/** A page of a cabinet's self-check records (cabinet_status and door reports), newest first. */
export function useCabinetRecords(id: number | null, page: number) {
  return useQuery({
    queryKey: cabinetKeys.records(id ?? 0, page),
    queryFn: ({ signal }) =>
      callApi(cabinetApi.records, {
        params: { id: id ?? 0 },
        query: { page, page_size: RECORD_PAGE_SIZE },
        signal,
      }),
    enabled: id !== null,
    placeholderData: keepPreviousData,
  })
}
