import { cabinetApi } from '@aed/contracts/cabinet'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { cabinetKeys } from './keys'

/** Where the import template is (GET /api/v1/cabinet/upload-info), asked when the popover opens. */
export function useImportTemplate(enabled: boolean) {
  return useQuery({
    queryKey: cabinetKeys.template,
    queryFn: ({ signal }) => callApi(cabinetApi.uploadInfo, { signal }),
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
  })
}
