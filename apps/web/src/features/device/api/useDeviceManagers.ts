import { memberApi } from '@aed/contracts/member'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { useDebouncedValue } from '../../../lib/useDebouncedValue'
import { deviceKeys } from './keys'

/** The spec's page size of the member list behind the manager picker. */
export const MANAGER_PAGE_SIZE = 100

/**
 * Members who may manage devices (no general users), by name: of one organisation for the
 * dialog, of the whole subtree (agencyId null) for the list's filter.
 */
export function useDeviceManagers(agencyId: number | null | undefined, name = '', enabled = true) {
  const settled = useDebouncedValue(name.trim(), 300)
  return useQuery({
    queryKey: deviceKeys.managers(agencyId ?? null, settled),
    queryFn: ({ signal }) =>
      callApi(memberApi.list, {
        query: {
          agency: agencyId ?? undefined,
          name: settled || undefined,
          exclude_general: 'true',
          page: 1,
          page_size: MANAGER_PAGE_SIZE,
        },
        signal,
      }),
    enabled: enabled && agencyId !== undefined,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  })
}
