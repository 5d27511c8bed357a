import { App } from 'antd'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

type Confirm = {
  title: ReactNode
  content: ReactNode
  /** Reddens OK, for what cannot be undone. */
  danger?: boolean
  /** Runs on OK; the dialog waits while a returned promise is pending. */
  onOk: () => unknown
}

/** Asks before an action, with the console's 确定 / 取消 buttons. */
export function useConfirm() {
  const { t } = useTranslation()
  const { modal } = App.useApp()
  return ({ title, content, danger, onOk }: Confirm) =>
    modal.confirm({
      title,
      content,
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: danger ? { danger: true } : undefined,
      onOk,
    })
}
