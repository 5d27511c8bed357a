import { useQuery } from '@tanstack/react-query'
import { toRegionOptions } from './regionOptions'

/** The whole region tree, loaded once as its own chunk the first time a picker needs it. */
export function useRegionOptions() {
  return useQuery({
    queryKey: ['regions', 'tree'],
    queryFn: async () => toRegionOptions((await import('@aed/contracts/regions')).regionTree()),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: Number.POSITIVE_INFINITY,
  })
}
