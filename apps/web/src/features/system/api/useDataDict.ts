import { constantsApi } from '@aed/contracts/constants'
import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { callApi } from '../../../lib/api'
import { systemKeys } from './keys'

/** The server's data dictionary (labels in the UI language, the device import template's URL). */
export function useDataDict(enabled = true) {
  const { i18n } = useTranslation()
  return useQuery({
    queryKey: systemKeys.dataDict(i18n.language),
    queryFn: ({ signal }) => callApi(constantsApi.dataDict, { signal }),
    staleTime: 10 * 60_000,
    enabled,
  })
}
