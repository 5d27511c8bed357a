import type { Responder } from '@aed/contracts/responder'
import { useTranslation } from 'react-i18next'
import { useConfirmDelete } from '../../../lib/useConfirmDelete'
import { useDeleteResponder } from '../api/useDeleteResponder'

/** 是否删除急救人员{name}, then delete (删除成功！ is the server's). */
export function useConfirmDeleteResponder() {
  const { t } = useTranslation()
  return useConfirmDelete(useDeleteResponder(), (r: Responder) => ({
    title: t('responder.deleteTitle'),
    content: t('responder.deleteConfirm', { name: r.name }),
  }))
}
