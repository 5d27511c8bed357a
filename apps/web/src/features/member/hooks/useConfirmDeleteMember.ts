import type { Member } from '@aed/contracts/member'
import { App } from 'antd'
import { useTranslation } from 'react-i18next'
import { useSubmit } from '../../../lib/useSubmit'
import { useDeleteMember } from '../api/useDeleteMember'

/** 是否删除用户{name}, then delete. */
export function useConfirmDeleteMember() {
  const { t } = useTranslation()
  const { modal } = App.useApp()
  const remove = useSubmit(useDeleteMember())
  return (member: Member) =>
    modal.confirm({
      title: t('member.deleteTitle'),
      content: t('member.deleteConfirm', { name: member.account.name }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: () => remove(member.id),
    })
}
