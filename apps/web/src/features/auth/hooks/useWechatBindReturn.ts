import { useTranslation } from 'react-i18next'
import { sessionStore } from '../../../lib/session'
import { StorageKey, storage } from '../../../lib/storage'
import { useSubmit } from '../../../lib/useSubmit'
import { useWechatBind } from '../api/useWechatBind'
import { useWechatReturn } from './useWechatReturn'

export type PendingWechatBind = { sms_code: string }
export const PENDING_BIND_TTL_MS = 10 * 60 * 1000

/** Finishes a WeChat bind when WeChat returns to the console with code and state. */
export function useWechatBindReturn() {
  const { t } = useTranslation()
  const bind = useWechatBind()
  const send = useSubmit(bind, {
    success: t('wechat.bindOk'),
    onDone: () => sessionStore.updateUserInfo({ bind_wx: true }),
  })

  useWechatReturn(({ code, state }, clear) => {
    const pending = storage.get<PendingWechatBind>(StorageKey.wechatBind)
    if (!pending) {
      clear()
      return
    }
    storage.remove(StorageKey.wechatBind)
    void send({ code, state, sms_code: pending.sms_code }).finally(clear)
  })

  return { binding: bind.isPending }
}
