import type { BodyIn } from '@aed/contracts'
import { wechatApi } from '@aed/contracts/auth'
import { useMutation } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'

/** Binds WeChat: the WeChat code plus the bind_wx SMS code. */
export function useWechatBind() {
  return useMutation({
    mutationFn: (body: BodyIn<typeof wechatApi.bind>) => sendApi(wechatApi.bind, { body }),
  })
}
