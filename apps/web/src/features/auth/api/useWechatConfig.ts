import { useQuery } from '@tanstack/react-query'
import { http } from '../../../lib/request'
import type { WechatConfig } from './types'

export type WechatPurpose = 'login' | 'bind'

/**
 * GET /api/v1/third-party/wechat/config?purpose=..: whether WeChat is configured, and a
 * one-time state for that purpose; fetched afresh whenever a QR panel mounts.
 */
export function useWechatConfig(purpose: WechatPurpose, enabled = true) {
  return useQuery({
    queryKey: ['wechat', 'config', purpose],
    queryFn: ({ signal }) =>
      http.get<WechatConfig>('/v1/third-party/wechat/config', { query: { purpose }, signal }),
    enabled,
    staleTime: 0,
    gcTime: 0,
  })
}
