import type { Member } from '@aed/contracts/member'
import { useTranslation } from 'react-i18next'
import { useConfirmDelete } from '../../../lib/useConfirmDelete'
import { useDeleteMember } from '../api/useDeleteMember'

/** 是否删除用户{name}, then delete. */
export function useConfirmDeleteMember() {
  const { t } = useTranslation()
  return useConfirmDelete(useDeleteMember(), (member: Member) => ({
    title: t('member.deleteTitle'),
    content: t('member.deleteConfirm', { name: member.account.name }),
  }))
}
