import type { MapSuggestion } from '@aed/contracts/map'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { http } from '../../lib/request'
import { useDebouncedValue } from '../../lib/useDebouncedValue'

export const SUGGEST_DEBOUNCE_MS = 300

/** GET /api/v1/map/suggestion: places matching what is typed, once typing pauses. */
export function usePlaceSuggestions(keyword: string) {
  const settled = useDebouncedValue(keyword.trim(), SUGGEST_DEBOUNCE_MS)
  return useQuery({
    queryKey: ['map', 'suggestion', settled],
    queryFn: ({ signal }) =>
      http.get<MapSuggestion[]>('/v1/map/suggestion', { signal, query: { keyword: settled } }),
    enabled: settled.length > 0 && settled.length <= 50,
    placeholderData: keepPreviousData,
    staleTime: 5 * 60_000,
  })
}
