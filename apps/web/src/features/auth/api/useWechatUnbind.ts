import { wechatApi } from '@aed/contracts/auth'
import { useMutation } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'

/** Unbinds WeChat from the signed-in account. */
export function useWechatUnbind() {
  return useMutation({ mutationFn: () => sendApi(wechatApi.unbind, {}) })
}
