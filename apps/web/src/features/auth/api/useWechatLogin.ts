import type { UserInfo } from '@aed/contracts'
import { useMutation } from '@tanstack/react-query'
import { http } from '../../../lib/request'

/** POST /api/v1/third-party/wechat/login with the code WeChat returned. */
export function useWechatLogin() {
  return useMutation({
    mutationFn: (payload: { code: string; state: string }) =>
      http.post<UserInfo>('/v1/third-party/wechat/login', payload),
  })
}
