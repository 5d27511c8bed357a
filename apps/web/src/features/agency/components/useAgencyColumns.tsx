import type { Agency } from '@aed/contracts/agency'
import { Badge } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import { actionsColumn } from '../../../components/TableColumns/actionsColumn'
import { dateTimeColumn } from '../../../components/TableColumns/dateTimeColumn'
import { fullAddress } from '../../../lib/address'

type Actions = { onEdit: (a: Agency) => void; onToggle: (a: Agency) => void }

/** Columns of the organisation list; edit and disable/enable follow the row's `can`. */
export function useAgencyColumns({ onEdit, onToggle }: Actions): ColumnsType<Agency> {
  const { t } = useTranslation()
  const dash = t('table.empty')
  return [
    { title: t('agency.name'), dataIndex: 'name', width: 190, ellipsis: true },
    {
      title: t('agency.type'),
      dataIndex: 'agency_type',
      width: 150,
      className: 'nowrap-cell',
      render: (v: number) => t(`agencyType.${v}`),
    },
    {
      title: t('agency.parent'),
      dataIndex: 'parent_name',
      width: 180,
      ellipsis: true,
      render: (v: string | null) => v || dash,
    },
    {
      title: t('agency.level'),
      dataIndex: 'level',
      sorter: true,
      width: 100,
      render: (v: number) => t('agency.levelText', { level: v }),
    },
    {
      title: t('agency.contact'),
      dataIndex: 'contact_name',
      width: 100,
      render: (v: string | null) => v || dash,
    },
    { title: t('agency.phone'), dataIndex: 'phone', width: 130, render: (v: string | null) => v || dash },
    {
      title: t('agency.address'),
      key: 'address',
      width: 220,
      ellipsis: true,
      render: (_, a) => fullAddress(a.address_name, a.location) || dash,
    },
    dateTimeColumn<Agency>(t('agency.createTime'), 'create_time'),
    {
      title: t('agency.status'),
      key: 'status',
      width: 130,
      className: 'nowrap-cell',
      render: (_, a) =>
        a.disabled ? (
          <Badge status="error" text={t('agency.statusDisabled')} />
        ) : a.effective_disabled ? (
          <Badge status="warning" text={t('agency.statusInherited')} />
        ) : (
          <Badge status="success" text={t('agency.statusNormal')} />
        ),
    },
    actionsColumn<Agency>(t('table.actions'), 130, (a) => [
      { label: t('common.edit'), onClick: () => onEdit(a), testId: `agency-edit-${a.id}`, show: a.can.edit },
      {
        label: a.disabled ? t('agency.enable') : t('agency.disable'),
        onClick: () => onToggle(a),
        testId: `agency-toggle-${a.id}`,
        danger: !a.disabled,
        show: a.can.disable,
      },
    ]),
  ]
}
