import type { ClassroomItem } from '@aed/contracts/classroom'
import { Image, Tag } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import { actionsColumn } from '../../../components/TableColumns/actionsColumn'
import { dateTimeColumn } from '../../../components/TableColumns/dateTimeColumn'
import { useDict } from '../../../lib/useDict'

type Actions = {
  canEdit: boolean
  canDelete: boolean
  onEdit: (c: ClassroomItem) => void
  onDelete: (c: ClassroomItem) => void
}
const categoryColor: Record<number, string> = { 1: 'purple', 2: 'green', 3: 'blue' }

/** Columns of the classroom list. */
export function useClassroomColumns({
  canEdit,
  canDelete,
  onEdit,
  onDelete,
}: Actions): ColumnsType<ClassroomItem> {
  const { t } = useTranslation()
  const { label } = useDict()
  const dash = t('table.empty')
  return [
    {
      title: t('classroom.cover'),
      dataIndex: 'illustration',
      width: 110,
      render: (v: string | null) =>
        v ? <Image src={v} width={72} height={44} className="classroom-cover" alt="" /> : dash,
    },
    { title: t('classroom.title'), dataIndex: 'title', width: 220, ellipsis: true },
    {
      title: t('classroom.category'),
      dataIndex: 'category',
      width: 120,
      render: (v: number) => <Tag color={categoryColor[v]}>{label('classroom_category', v)}</Tag>,
    },
    {
      title: t('classroom.contentType'),
      dataIndex: 'content_type',
      width: 100,
      render: (v: number) => label('classroom_content_type', v === 1 || v === 2 ? v : 3),
    },
    {
      title: t('classroom.describe'),
      dataIndex: 'describe',
      width: 260,
      ellipsis: true,
      render: (v: string) => v || dash,
    },
    { title: t('classroom.agency'), dataIndex: 'agency_name', width: 180, ellipsis: true },
    {
      title: t('classroom.creator'),
      dataIndex: 'creator_name',
      width: 120,
      render: (v: string | null) => v || dash,
    },
    dateTimeColumn<ClassroomItem>(t('classroom.createTime'), 'create_time'),
    actionsColumn<ClassroomItem>(t('table.actions'), 130, (c) => [
      {
        label: canEdit ? t('common.edit') : t('common.detail'),
        onClick: () => onEdit(c),
        testId: `classroom-edit-${c.id}`,
      },
      {
        label: t('common.delete'),
        onClick: () => onDelete(c),
        testId: `classroom-delete-${c.id}`,
        danger: true,
        show: canDelete,
      },
    ]),
  ]
}
