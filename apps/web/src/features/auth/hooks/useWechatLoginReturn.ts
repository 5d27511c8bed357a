import type { UserInfo } from '@aed/contracts'
import { useEffect, useRef } from 'react'
import { useSearchParams } from 'react-router'
import { useWechatLogin } from '../api/useWechatLogin'

/** Handles the return from WeChat at /user/login?code=..&state=..: signs in with the code once. */
export function useWechatLoginReturn(onSignedIn: (info: UserInfo) => void) {
  const [params, setParams] = useSearchParams()
  const code = params.get('code')
  const state = params.get('state')
  const login = useWechatLogin()
  const { mutateAsync } = login
  const handled = useRef<string | null>(null)

  useEffect(() => {
    if (!code || !state || handled.current === code) return
    handled.current = code
    mutateAsync({ code, state })
      .then(onSignedIn)
      .catch(() => {
        setParams(
          (prev) => {
            const next = new URLSearchParams(prev)
            next.delete('code')
            next.delete('state')
            return next
          },
          { replace: true },
        )
      })
  }, [code, state, mutateAsync, onSignedIn, setParams])

  return { signingIn: login.isPending }
}
