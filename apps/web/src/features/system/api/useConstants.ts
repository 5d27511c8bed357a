import { constantsApi } from '@aed/contracts/constants'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { callApi } from '../../../lib/api'
import { systemKeys } from './keys'

/** Device models and brands, default coordinate, service names (in the UI language). */
export function useConstants() {
  const { i18n } = useTranslation()
  return useQuery({
    queryKey: systemKeys.constants(i18n.language),
    queryFn: ({ signal }) => callApi(constantsApi.constants, { signal }),
    staleTime: 10 * 60_000,
  })
}
