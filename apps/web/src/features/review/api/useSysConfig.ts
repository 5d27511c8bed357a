import { reviewApi } from '@aed/contracts/review'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { reviewKeys } from './keys'

/** The two system-wide switches of 后台配置, with the member's `can.edit`. */
export function useSysConfig() {
  return useQuery({
    queryKey: reviewKeys.sysConfig,
    queryFn: ({ signal }) => callApi(reviewApi.sysConfig, { signal }),
  })
}
