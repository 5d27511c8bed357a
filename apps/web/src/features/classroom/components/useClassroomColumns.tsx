import type { ClassroomItem } from '@aed/contracts/classroom'
import { Button, Image, Space, Tag } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import { formatDateTime } from '../../../lib/datetime'
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
    {
      title: t('classroom.createTime'),
      dataIndex: 'create_time',
      sorter: true,
      width: 170,
      render: (v: string) => formatDateTime(v),
    },
    {
      title: t('table.actions'),
      key: 'actions',
      width: 130,
      fixed: 'right',
      render: (_, c) => (
        <Space size={0} onClick={(e) => e.stopPropagation()}>
          <Button type="link" size="small" onClick={() => onEdit(c)} data-testid={`classroom-edit-${c.id}`}>
            {canEdit ? t('common.edit') : t('common.detail')}
          </Button>
          {canDelete && (
            <Button
              type="link"
              size="small"
              danger
              onClick={() => onDelete(c)}
              data-testid={`classroom-delete-${c.id}`}
            >
              {t('common.delete')}
            </Button>
          )}
        </Space>
      ),
    },
  ]
}
