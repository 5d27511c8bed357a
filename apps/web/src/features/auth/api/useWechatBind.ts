import { useMutation } from '@tanstack/react-query'
import { http } from '../../../lib/request'

/** POST /api/v1/third-party/wechat/bind: the WeChat code plus the bind_wx SMS code. */
export function useWechatBind() {
  return useMutation({
    mutationFn: (payload: { code: string; state: string; sms_code: string }) =>
      http.post<unknown>('/v1/third-party/wechat/bind', payload),
  })
}
