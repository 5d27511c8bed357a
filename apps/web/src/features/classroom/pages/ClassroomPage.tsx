import type { ClassroomItem } from '@aed/contracts/classroom'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DataTable } from '../../../components/DataTable/DataTable'
import { useListState } from '../../../components/DataTable/useListState'
import { selectFilter, textFilter } from '../../../components/FilterForm/fields'
import type { FilterField } from '../../../components/FilterForm/types'
import { ListPage } from '../../../components/ListPage/ListPage'
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
  const can = rows.data?.can
  const [dialog, setDialog] = useState<{ id: number | null } | null>(null)
  const onDelete = useConfirmDeleteClassroom()
  const columns = useClassroomColumns({
    canEdit: can?.edit ?? false,
    canDelete: can?.delete ?? false,
    onEdit: (c) => setDialog({ id: c.id }),
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
          onClick: () => setDialog({ id: null }),
          testId: 'classroom-add',
        }
      }
      dialogs={
        <ClassroomModal
          open={dialog !== null}
          id={dialog?.id ?? null}
          canEdit={(dialog?.id == null ? can?.create : can?.edit) ?? false}
          onClose={() => setDialog(null)}
        />
      }
    >
      <DataTable<ClassroomItem> list={list} columns={columns} rowKey={(c) => c.id} query={rows} />
    </ListPage>
  )
}
