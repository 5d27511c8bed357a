import type { Constants } from '@aed/contracts/constants'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { http } from '../../../lib/request'

/** GET /api/v1/system/constants/: device models and brands, default coordinate, service names (in the UI language). */
export function useConstants() {
  const { i18n } = useTranslation()
  return useQuery({
    queryKey: ['system', 'constants', i18n.language],
    queryFn: ({ signal }) => http.get<Constants>('/v1/system/constants/', { signal }),
    staleTime: 10 * 60_000,
  })
}
