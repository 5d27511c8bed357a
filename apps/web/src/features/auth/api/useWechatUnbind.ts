import { useMutation } from '@tanstack/react-query'
import { http } from '../../../lib/request'

/** POST /api/v1/third-party/wechat/unbind. */
export function useWechatUnbind() {
  return useMutation({
    mutationFn: () => http.post<unknown>('/v1/third-party/wechat/unbind', {}),
  })
}
