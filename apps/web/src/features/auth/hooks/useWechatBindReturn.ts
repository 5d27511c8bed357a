import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router'
import { sessionStore } from '../../../lib/session'
import { StorageKey, storage } from '../../../lib/storage'
import { useSubmit } from '../../../lib/useSubmit'
import { useWechatBind } from '../api/useWechatBind'

export type PendingWechatBind = { sms_code: string }
export const PENDING_BIND_TTL_MS = 10 * 60 * 1000

/** Finishes a WeChat bind when WeChat returns to the console with code and state. */
export function useWechatBindReturn() {
  const { t } = useTranslation()
  const [params, setParams] = useSearchParams()
  const code = params.get('code')
  const state = params.get('state')
  const bind = useWechatBind()
  const send = useSubmit(bind, {
    success: t('wechat.bindOk'),
    onDone: () => sessionStore.updateUserInfo({ bind_wx: true }),
  })
  const latest = useRef(send)
  latest.current = send
  const handled = useRef<string | null>(null)

  useEffect(() => {
    if (!code || !state || handled.current === code) return
    handled.current = code
    const clearParams = () =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev)
          next.delete('code')
          next.delete('state')
          return next
        },
        { replace: true },
      )
    const pending = storage.get<PendingWechatBind>(StorageKey.wechatBind)
    if (!pending) {
      clearParams()
      return
    }
    storage.remove(StorageKey.wechatBind)
    void latest.current({ code, state, sms_code: pending.sms_code }).finally(clearParams)
  }, [code, state, setParams])

  return { binding: bind.isPending }
}
