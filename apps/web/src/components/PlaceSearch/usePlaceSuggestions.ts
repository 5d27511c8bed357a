import { mapApi } from '@aed/contracts/map'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { callApi } from '../../lib/api'
import { useDebouncedValue } from '../../lib/useDebouncedValue'

export const SUGGEST_DEBOUNCE_MS = 300

/** Places matching what is typed, once typing pauses. */
export function usePlaceSuggestions(keyword: string) {
  const settled = useDebouncedValue(keyword.trim(), SUGGEST_DEBOUNCE_MS)
  return useQuery({
    queryKey: ['map', 'suggestion', settled],
    queryFn: ({ signal }) => callApi(mapApi.suggestion, { query: { keyword: settled }, signal }),
    enabled: settled.length > 0 && settled.length <= 50,
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  })
}
