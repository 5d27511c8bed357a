import type { PageDetailType } from '@aed/contracts/device-detail'
import { deviceDetailApi } from '@aed/contracts/device-detail'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { deviceKeys } from './keys'

/** The spec's page size of the detail's record tabs. */
export const DETAIL_PAGE_SIZE = 500

/**
 * A record tab of the detail (detect, early_warn, fault, inspect, offset): the newest 500 rows.
 * The rows are of the tab's kind, which the caller names as `T`.
 */
export function useDetailRecords<T>(sn: string, type: PageDetailType, enabled: boolean) {
  return useQuery({
    queryKey: deviceKeys.records(sn, type),
    queryFn: async ({ signal }) => {
      const data = await callApi(deviceDetailApi.page, {
        query: { device_sn: sn, data_type: type, page: 1, page_size: DETAIL_PAGE_SIZE },
        signal,
      })
      return { count: data.count, resource: data.resource as T[] }
    },
    enabled: enabled && Boolean(sn),
  })
}
