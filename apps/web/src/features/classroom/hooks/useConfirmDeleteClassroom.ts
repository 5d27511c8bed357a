import type { ClassroomItem } from '@aed/contracts/classroom'
import { useTranslation } from 'react-i18next'
import { useConfirmDelete } from '../../../lib/useConfirmDelete'
import { useDeleteClassroom } from '../api/useDeleteClassroom'

/** 是否删除“{title}”, then delete. */
export function useConfirmDeleteClassroom() {
  const { t } = useTranslation()
  return useConfirmDelete(useDeleteClassroom(), (item: ClassroomItem) => ({
    title: t('classroom.deleteTitle'),
    content: t('classroom.deleteConfirm', { title: item.title }),
  }))
}
