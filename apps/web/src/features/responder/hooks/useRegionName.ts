import { useQuery } from '@tanstack/react-query'

/** The full name of a region code ("浙江省杭州市西湖区"), from the region chunk loaded on first need. */
export function useRegionName(code: string | null | undefined) {
  return useQuery({
    queryKey: ['regions', 'name', code],
    queryFn: async () => (await import('@aed/contracts/regions')).regionFullName(code as string),
    enabled: Boolean(code),
    staleTime: Number.POSITIVE_INFINITY,
  })
}
