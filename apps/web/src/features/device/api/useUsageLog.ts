import type { UsageLogRow } from '@aed/contracts/device-detail'
import { deviceDetailApi } from '@aed/contracts/device-detail'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { deviceKeys } from './keys'

/** The spec's page size of the usage log. */
export const USAGE_LOG_PAGE_SIZE = 10

/** A page of the device's usage log (the steps of its rescues; with one rescue, its steps only). */
export function useUsageLog(sn: string, page: number, enabled: boolean, rescueEventId?: string) {
  return useQuery({
    queryKey: [...deviceKeys.detail(`sn:${sn}`), 'usage_log', page, rescueEventId ?? null] as const,
    queryFn: async ({ signal }) => {
      const data = await callApi(deviceDetailApi.single, {
        query: {
          device_sn: sn,
          data_type: 'usage_log',
          page,
          page_size: USAGE_LOG_PAGE_SIZE,
          rescue_event_id: rescueEventId,
        },
        signal,
      })
      return 'resource' in data
        ? { count: data.count, resource: data.resource as UsageLogRow[] }
        : { count: 0, resource: [] }
    },
    enabled: enabled && Boolean(sn),
    placeholderData: keepPreviousData,
  })
}
