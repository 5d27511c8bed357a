import type { ClassroomItem } from '@aed/contracts/classroom'
import { App, Card } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DataTable } from '../../../components/DataTable/DataTable'
import { useListState } from '../../../components/DataTable/useListState'
import { FilterForm } from '../../../components/FilterForm/FilterForm'
import type { FilterField } from '../../../components/FilterForm/types'
import { ListCard } from '../../../components/ListCard/ListCard'
import { useAreaLevel } from '../../../lib/useAreaLevel'
import { classroomKey, fetchClassroom } from '../api/classroomApi'
import { useDeleteClassroom } from '../api/useDeleteClassroom'
import { CATEGORIES } from '../classroomRules'
import { ClassroomModal } from '../components/ClassroomModal'
import { useClassroomColumns } from '../components/useClassroomColumns'

/** /systemManagement/classroom: 急救课堂列表 with create, edit and delete. */
export function ClassroomPage() {
  const { t } = useTranslation()
  const { modal, message } = App.useApp()
  const list = useListState()
  const { canEdit, canDelete } = useAreaLevel('agency')
  const [dialog, setDialog] = useState<{ id: number | null } | null>(null)
  const remove = useDeleteClassroom()
  const onDelete = (c: ClassroomItem) =>
    modal.confirm({
      title: t('classroom.deleteTitle'),
      content: t('classroom.deleteConfirm', { title: c.title }),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          message.success((await remove.mutateAsync(c.id)).msg)
        } catch {
          // The request client already showed the reason.
        }
      },
    })
  const columns = useClassroomColumns({
    canEdit,
    canDelete,
    onEdit: (c) => setDialog({ id: c.id }),
    onDelete,
  })
  const fields: FilterField[] = [
    {
      name: 'title',
      title: t('classroom.title'),
      type: 'input',
      placeholder: t('classroom.titlePlaceholder'),
      maxLength: 50,
    },
    {
      name: 'category',
      title: t('classroom.category'),
      type: 'select',
      options: CATEGORIES.map((c) => ({ value: c, label: t(`classroom.categories.${c}`) })),
    },
  ]

  return (
    <div className="page" data-testid="classroom-page">
      <Card className="filter-card">
        <FilterForm fields={fields} values={list.filters} onSearch={list.search} onReset={list.refresh} />
      </Card>
      <ListCard
        title={t('classroom.list')}
        add={
          canEdit && {
            label: t('classroom.add'),
            onClick: () => setDialog({ id: null }),
            testId: 'classroom-add',
          }
        }
      >
        <DataTable<ClassroomItem>
          list={list}
          columns={columns}
          rowKey={(c) => c.id}
          queryKey={classroomKey}
          fetch={fetchClassroom}
        />
      </ListCard>
      <ClassroomModal open={dialog !== null} id={dialog?.id ?? null} onClose={() => setDialog(null)} />
    </div>
  )
}
