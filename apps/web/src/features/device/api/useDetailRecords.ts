import type { PageDetailType } from '@aed/contracts/device-detail'
import { deviceDetailApi } from '@aed/contracts/device-detail'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { deviceKeys } from './keys'

/** The spec's page size of the detail's record tabs. */
export const DETAIL_PAGE_SIZE = 500

/**
 * A record tab of the detail (detect, early_warn, fault, inspect, offset): the newest 500 rows.
 * The rows are of the tab's kind, which the caller names as `T`; with a rescue, those of its span.
 */
export function useDetailRecords<T>(
  sn: string,
  type: PageDetailType,
  enabled: boolean,
  rescueEventId?: string,
) {
  return useQuery({
    queryKey: deviceKeys.records(sn, type, rescueEventId),
    queryFn: async ({ signal }) => {
      const data = await callApi(deviceDetailApi.page, {
        query: {
          device_sn: sn,
          data_type: type,
          page: 1,
          page_size: DETAIL_PAGE_SIZE,
          rescue_event_id: rescueEventId,
        },
        signal,
      })
      return { count: data.count, resource: data.resource as T[] }
    },
    enabled: enabled && Boolean(sn),
  })
}
