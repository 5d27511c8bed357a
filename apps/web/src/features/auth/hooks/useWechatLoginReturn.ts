import type { UserInfo } from '@aed/contracts'
import { useWechatLogin } from '../api/useWechatLogin'
import { useWechatReturn } from './useWechatReturn'

/** Handles the return from WeChat at /user/login?code=..&state=..: signs in with the code once. */
export function useWechatLoginReturn(onSignedIn: (info: UserInfo) => void) {
  const login = useWechatLogin()
  useWechatReturn(({ code, state }, clear) => {
    login.mutateAsync({ code, state }).then(onSignedIn).catch(clear)
  })
  return { signingIn: login.isPending }
}
