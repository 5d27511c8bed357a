import { AidAptitude, type Responder } from '@aed/contracts/responder'
import { Tag } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import { actionsColumn } from '../../../components/TableColumns/actionsColumn'
import { dateTimeColumn } from '../../../components/TableColumns/dateTimeColumn'
import { useDict } from '../../../lib/useDict'
import { CertificateStatus } from './CertificateStatus'
import { DispatchStateTag } from './DispatchStateTag'

type Actions = {
  onEdit: (r: Responder) => void
  onDelete: (r: Responder) => void
  onPause: (r: Responder) => void
  onResume: (r: Responder) => void
  onRenew: (r: Responder) => void
}

/** Columns of the responder list; the actions follow the row's `can`. */
export function useResponderColumns(actions: Actions): ColumnsType<Responder> {
  const { t } = useTranslation()
  const { label } = useDict()
  const dash = t('table.empty')
  const text = (v: string | number | null) => (v === null || v === '' ? dash : v)
  return [
    {
      title: t('responder.name'),
      dataIndex: 'name',
      width: 150,
      ellipsis: true,
      sorter: true,
      render: (name: string, r) => (
        <>
          {name}
          {r.volunteer && (
            <Tag
              color="geekblue"
              className="responder-volunteer-tag"
              data-testid={`responder-volunteer-${r.id}`}
            >
              {t('responder.volunteer')}
            </Tag>
          )}
        </>
      ),
    },
    {
      title: t('responder.gender'),
      dataIndex: 'gender',
      width: 70,
      render: (v: number | null) => (v ? label('gender', v) : dash),
    },
    { title: t('responder.age'), dataIndex: 'age', width: 70, render: text },
    { title: t('responder.phone'), dataIndex: 'phone', width: 130 },
    {
      title: t('responder.aptitude'),
      dataIndex: 'aid_aptitude',
      width: 100,
      render: (v: number) => label('aid_aptitude', v),
    },
    {
      title: t('responder.certificateNum'),
      dataIndex: 'certificate_num',
      width: 150,
      ellipsis: true,
      render: text,
    },
    {
      title: t('responder.certificateExpire'),
      dataIndex: 'certificate_expire',
      width: 120,
      sorter: true,
      render: text,
    },
    {
      title: t('responder.certificateStatus'),
      key: 'certificate_status',
      width: 100,
      render: (_, r) => <CertificateStatus responder={r} />,
    },
    {
      title: t('responder.dispatchState'),
      key: 'dispatch_state',
      width: 110,
      render: (_, r) => <DispatchStateTag responder={r} />,
    },
    { title: t('responder.agency'), dataIndex: 'agency_name', width: 180, ellipsis: true },
    dateTimeColumn<Responder>(t('responder.createTime'), 'create_time'),
    actionsColumn<Responder>(t('table.actions'), 230, (r) => [
      {
        label: t('common.edit'),
        onClick: () => actions.onEdit(r),
        testId: `responder-edit-${r.id}`,
        show: r.can.edit,
      },
      {
        label: r.paused ? t('responder.resume') : t('responder.pause'),
        onClick: () => (r.paused ? actions.onResume(r) : actions.onPause(r)),
        testId: `responder-${r.paused ? 'resume' : 'pause'}-${r.id}`,
        show: r.can.edit,
      },
      {
        label: t('responder.renew'),
        onClick: () => actions.onRenew(r),
        testId: `responder-renew-${r.id}`,
        show: r.can.edit && r.aid_aptitude === AidAptitude.PROFESSIONAL,
      },
      {
        label: t('common.delete'),
        onClick: () => actions.onDelete(r),
        testId: `responder-delete-${r.id}`,
        danger: true,
        show: r.can.delete,
      },
    ]),
  ]
}
