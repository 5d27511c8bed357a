import type { BodyIn } from '@aed/contracts'
import { wechatApi } from '@aed/contracts/auth'
import { useMutation } from '@tanstack/react-query'
import { callApi } from '../../../lib/api'

/** Signs in with the code WeChat returned. */
export function useWechatLogin() {
  return useMutation({
    mutationFn: (body: BodyIn<typeof wechatApi.login>) => callApi(wechatApi.login, { body }),
  })
}
