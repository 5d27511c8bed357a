import { responderApi } from '@aed/contracts/responder'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { responderKeys } from './keys'

/** Where the import template is (GET /api/v1/aid-man/upload-info), asked when the popover opens. */
export function useImportTemplate(enabled: boolean) {
  return useQuery({
    queryKey: responderKeys.template,
    queryFn: ({ signal }) => callApi(responderApi.uploadInfo, { signal }),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  })
}
