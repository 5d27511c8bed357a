import type { ClassroomItem } from '@aed/contracts/classroom'
import { useTranslation } from 'react-i18next'
import { DataTable } from '../../../components/DataTable/DataTable'
import { useListState } from '../../../components/DataTable/useListState'
import { selectFilter, textFilter } from '../../../components/FilterForm/fields'
import type { FilterField } from '../../../components/FilterForm/types'
import { ListPage } from '../../../components/ListPage/ListPage'
import { useDict } from '../../../lib/useDict'
import { useRecordDialogState } from '../../../lib/useRecordDialogState'
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
  const can = rows.data?.can
  const dialog = useRecordDialogState()
  const onDelete = useConfirmDeleteClassroom()
  const columns = useClassroomColumns({
    canEdit: can?.edit ?? false,
    canDelete: can?.delete ?? false,
    onEdit: dialog.edit,
    onDelete,
  })
  const fields: FilterField[] = [
    textFilter('title', t('classroom.title'), t('classroom.titlePlaceholder')),
    selectFilter('category', t('classroom.category'), options('classroom_category')),
  ]

  return (
    <ListPage
      testId="classroom-page"
      list={list}
      fields={fields}
      title={t('classroom.list')}
      add={
        can?.create && {
          label: t('classroom.add'),
          onClick: dialog.add,
          testId: 'classroom-add',
        }
      }
      dialogs={
        <ClassroomModal
          {...dialog.modal}
          canEdit={(dialog.modal.id === null ? can?.create : can?.edit) ?? false}
        />
      }
    >
      <DataTable<ClassroomItem> list={list} columns={columns} rowKey={(c) => c.id} query={rows} />
    </ListPage>
  )
}
