import { deviceApi } from '@aed/contracts/device'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { useDebouncedValue } from '../../../lib/useDebouncedValue'
import { deviceKeys } from './keys'

const SUGGESTIONS = 20

/** Serials of the factory list not yet registered, matching what is typed (the register dialog's suggestions). */
export function useUnregisteredSerials(typed: string, enabled: boolean) {
  const settled = useDebouncedValue(typed.trim(), 300)
  return useQuery({
    queryKey: deviceKeys.factory({ unregistered: settled }),
    queryFn: async ({ signal }) => {
      const data = await callApi(deviceApi.list, {
        query: {
          device_list_type: 2,
          is_register: 0,
          device_sn: settled || undefined,
          page_size: SUGGESTIONS,
        },
        signal,
      })
      return 'resource' in data ? data.resource.map((d) => d.device_sn) : []
    },
    enabled: enabled && settled.length <= 50,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  })
}
