import { useEffect, useRef } from 'react'
import { useSearchParams } from 'react-router'

type WechatReturn = { code: string; state: string }

/**
 * WeChat's return to the console with ?code=..&state=..: `handle` runs once per code, and its
 * `clear` removes both from the URL (replacing the history entry).
 */
export function useWechatReturn(handle: (ret: WechatReturn, clear: () => void) => void) {
  const [params, setParams] = useSearchParams()
  const code = params.get('code')
  const state = params.get('state')
  const latest = useRef(handle)
  latest.current = handle
  const handled = useRef<string | null>(null)

  useEffect(() => {
    if (!code || !state || handled.current === code) return
    handled.current = code
    const clear = () =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev)
          next.delete('code')
          next.delete('state')
          return next
        },
        { replace: true },
      )
    latest.current({ code, state }, clear)
  }, [code, state, setParams])
}
