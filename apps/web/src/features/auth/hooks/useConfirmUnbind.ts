import { App } from 'antd'
import { useTranslation } from 'react-i18next'
import { sessionStore } from '../../../lib/session'
import { useWechatUnbind } from '../api/useWechatUnbind'

/** Asks before unbinding WeChat, then unbinds and says 解绑成功. */
export function useConfirmUnbind() {
  const { t } = useTranslation()
  const { modal, message } = App.useApp()
  const { mutateAsync } = useWechatUnbind()
  return () =>
    modal.confirm({
      title: t('wechat.unbindTitle'),
      content: t('wechat.unbindConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await mutateAsync()
          sessionStore.updateUserInfo({ bind_wx: false })
          message.success(t('wechat.unbindOk'))
        } catch {
          // The request client already showed the reason.
        }
      },
    })
}
