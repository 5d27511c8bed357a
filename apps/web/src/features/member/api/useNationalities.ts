import { useQuery } from '@tanstack/react-query'

/** The ISO nationality list with Chinese and English names, loaded as its own chunk when a dialog needs it. */
export function useNationalities() {
  return useQuery({
    queryKey: ['nationalities'],
    queryFn: async () => (await import('@aed/contracts/nationality')).nationalities,
    staleTime: Number.POSITIVE_INFINITY,
  })
}
