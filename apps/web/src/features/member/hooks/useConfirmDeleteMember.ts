import type { Member } from '@aed/contracts/member'
import { App } from 'antd'
import { useTranslation } from 'react-i18next'
import { useDeleteMember } from '../api/useDeleteMember'

/** 是否删除用户{name}, then delete. */
export function useConfirmDeleteMember() {
  const { t } = useTranslation()
  const { modal, message } = App.useApp()
  const remove = useDeleteMember()
  return (member: Member) =>
    modal.confirm({
      title: t('member.deleteTitle'),
      content: t('member.deleteConfirm', { name: member.account.name }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          const { msg } = await remove.mutateAsync(member.id)
          message.success(msg)
        } catch {
          // The request client already showed the reason.
        }
      },
    })
}
