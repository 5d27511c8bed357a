import type { ClassroomItem } from '@aed/contracts/classroom'
import { App } from 'antd'
import { useTranslation } from 'react-i18next'
import { useSubmit } from '../../../lib/useSubmit'
import { useDeleteClassroom } from '../api/useDeleteClassroom'

/** 是否删除“{title}”, then delete. */
export function useConfirmDeleteClassroom() {
  const { t } = useTranslation()
  const { modal } = App.useApp()
  const remove = useSubmit(useDeleteClassroom())
  return (item: ClassroomItem) =>
    modal.confirm({
      title: t('classroom.deleteTitle'),
      content: t('classroom.deleteConfirm', { title: item.title }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: () => remove(item.id),
    })
}
