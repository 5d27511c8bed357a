import { useTranslation } from 'react-i18next'
import { sessionStore } from '../../../lib/session'
import { useConfirm } from '../../../lib/useConfirm'
import { useSubmit } from '../../../lib/useSubmit'
import { useWechatUnbind } from '../api/useWechatUnbind'

/** Asks before unbinding WeChat, then unbinds and says 解绑成功. */
export function useConfirmUnbind() {
  const { t } = useTranslation()
  const confirm = useConfirm()
  const unbind = useSubmit(useWechatUnbind(), {
    success: t('wechat.unbindOk'),
    onDone: () => sessionStore.updateUserInfo({ bind_wx: false }),
  })
  return () =>
    confirm({
      title: t('wechat.unbindTitle'),
      content: t('wechat.unbindConfirm'),
      danger: true,
      onOk: () => unbind(),
    })
}
