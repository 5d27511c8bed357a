import { type QueryKey, useQueryClient } from '@tanstack/react-query'
import { useThrottled } from './useThrottled'

/** Invalidates `queryKey` (none while null) at once, then at most once per `ms`: a page's answer to live frames. */
export function useThrottledRefetch(queryKey: QueryKey | null, ms: number) {
  const client = useQueryClient()
  return useThrottled(() => {
    if (queryKey) void client.invalidateQueries({ queryKey })
  }, ms)
}
