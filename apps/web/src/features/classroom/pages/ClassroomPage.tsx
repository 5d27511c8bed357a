import type { ClassroomItem } from '@aed/contracts/classroom'
import { Card } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DataTable } from '../../../components/DataTable/DataTable'
import { useListState } from '../../../components/DataTable/useListState'
import { FilterForm } from '../../../components/FilterForm/FilterForm'
import type { FilterField } from '../../../components/FilterForm/types'
import { ListCard } from '../../../components/ListCard/ListCard'
import { useAreaLevel } from '../../../lib/useAreaLevel'
import { useDict } from '../../../lib/useDict'
import { useClassroomList } from '../api/useClassroomList'
import { ClassroomModal } from '../components/ClassroomModal'
import { useClassroomColumns } from '../components/useClassroomColumns'
import { useConfirmDeleteClassroom } from '../hooks/useConfirmDeleteClassroom'

/** /systemManagement/classroom: 急救课堂列表 with create, edit and delete. */
export function ClassroomPage() {
  const { t } = useTranslation()
  const { options } = useDict()
  const list = useListState()
  const rows = useClassroomList(list)
  const { canEdit, canDelete } = useAreaLevel('agency')
  const [dialog, setDialog] = useState<{ id: number | null } | null>(null)
  const onDelete = useConfirmDeleteClassroom()
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
      options: options('classroom_category'),
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
        <DataTable<ClassroomItem> list={list} columns={columns} rowKey={(c) => c.id} query={rows} />
      </ListCard>
      <ClassroomModal open={dialog !== null} id={dialog?.id ?? null} onClose={() => setDialog(null)} />
    </div>
  )
}
