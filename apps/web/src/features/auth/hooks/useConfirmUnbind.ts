import { App } from 'antd'
import { useTranslation } from 'react-i18next'
import { sessionStore } from '../../../lib/session'
import { useSubmit } from '../../../lib/useSubmit'
import { useWechatUnbind } from '../api/useWechatUnbind'

/** Asks before unbinding WeChat, then unbinds and says 解绑成功. */
export function useConfirmUnbind() {
  const { t } = useTranslation()
  const { modal } = App.useApp()
  const unbind = useSubmit(useWechatUnbind(), {
    success: t('wechat.unbindOk'),
    onDone: () => sessionStore.updateUserInfo({ bind_wx: false }),
  })
  return () =>
    modal.confirm({
      title: t('wechat.unbindTitle'),
      content: t('wechat.unbindConfirm'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: () => unbind(),
    })
}
