import type { Member } from '@aed/contracts/member'
import { Tag } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import dayjs from 'dayjs'
import { useTranslation } from 'react-i18next'
import { actionsColumn } from '../../../components/TableColumns/actionsColumn'
import { dateTimeColumn } from '../../../components/TableColumns/dateTimeColumn'
import { formatDateTime } from '../../../lib/datetime'
import { useDict } from '../../../lib/useDict'

type Actions = {
  onEdit: (m: Member) => void
  onAuthority: (m: Member) => void
  onDelete: (m: Member) => void
}

const roleColor = ['gold', 'blue', 'default'] as const

/** Columns of the user list; edit, 权限管理 and delete follow the row's `can`. */
export function useMemberColumns({ onEdit, onAuthority, onDelete }: Actions): ColumnsType<Member> {
  const { t } = useTranslation()
  const { label } = useDict()
  const dash = t('table.empty')
  return [
    { title: t('member.name'), key: 'name', width: 140, ellipsis: true, render: (_, m) => m.account.name },
    { title: t('member.phone'), key: 'phone', width: 130, render: (_, m) => m.account.phone },
    {
      title: t('member.email'),
      key: 'email',
      width: 190,
      ellipsis: true,
      render: (_, m) => m.account.email || dash,
    },
    {
      title: t('member.role'),
      dataIndex: 'role_type',
      width: 110,
      render: (v: 0 | 1 | 2) => <Tag color={roleColor[v]}>{label('role_type', v)}</Tag>,
    },
    { title: t('member.agency'), dataIndex: 'agency_name', width: 200, ellipsis: true },
    {
      title: t('member.period.title'),
      dataIndex: 'use_expire',
      width: 170,
      render: (v: string | null) =>
        !v ? (
          t('member.period.permanent')
        ) : dayjs(v).isBefore(dayjs()) ? (
          <Tag color="red">{t('member.period.expired')}</Tag>
        ) : (
          formatDateTime(v)
        ),
    },
    { title: t('member.creator'), dataIndex: 'creator', width: 120, render: (v: string | null) => v || dash },
    dateTimeColumn<Member>(t('member.createTime'), 'create_time'),
    actionsColumn<Member>(t('table.actions'), 200, (m) => [
      { label: t('common.edit'), onClick: () => onEdit(m), testId: `member-edit-${m.id}`, show: m.can.edit },
      {
        label: t('member.authority'),
        onClick: () => onAuthority(m),
        testId: `member-authority-${m.id}`,
        show: m.can.edit,
      },
      {
        label: t('common.delete'),
        onClick: () => onDelete(m),
        testId: `member-delete-${m.id}`,
        danger: true,
        show: m.can.delete,
      },
    ]),
  ]
}
