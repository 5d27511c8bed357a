import type { DataOf } from '@aed/contracts'
import { wechatApi } from '@aed/contracts/auth'
import { useQuery } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'
import { authKeys } from './keys'

export type WechatPurpose = 'login' | 'bind'
export type WechatConfig = DataOf<typeof wechatApi.config>

/** Whether WeChat is configured, and a one-time state for that purpose; fetched afresh whenever a QR panel mounts. */
export function useWechatConfig(purpose: WechatPurpose, enabled = true) {
  return useQuery({
    queryKey: authKeys.wechatConfig(purpose),
    queryFn: ({ signal }) => callApi(wechatApi.config, { query: { purpose }, signal }),
    enabled,
    staleTime: 0,
    gcTime: 0,
  })
}
