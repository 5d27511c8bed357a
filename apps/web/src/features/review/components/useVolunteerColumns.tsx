import { AuditStatus, type Volunteer } from '@aed/contracts/review'
import type { ColumnsType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import { actionsColumn } from '../../../components/TableColumns/actionsColumn'
import { ReviewImages } from './ReviewImages'
import { volunteerSubmission } from './submission'
import { type DecisionActions, useAuditColumns } from './useAuditColumns'

type Actions = DecisionActions & { onDelete: (v: Volunteer) => void }

/** Columns of a volunteer tab: submit time in review, audit time after; the remark on the rejected tab. */
export function useVolunteerColumns(status: number, actions: Actions): ColumnsType<Volunteer> {
  const { t } = useTranslation()
  const audit = useAuditColumns(status, volunteerSubmission, actions)
  return [
    audit.named(t('review.name'), 'submitter_name', 170),
    { title: t('review.guardArea'), dataIndex: 'guard_area', width: 200, ellipsis: true },
    { title: t('review.phone'), dataIndex: 'submitter_phone', width: 130 },
    {
      title: t('review.hasCert'),
      dataIndex: 'has_cert',
      width: 100,
      render: (v: number) => (v === 1 ? t('review.yes') : t('review.no')),
    },
    {
      title: t('review.certImg'),
      dataIndex: 'cert_img',
      width: 100,
      render: (url: string | null, v) =>
        url ? <ReviewImages urls={[url]} testId={`review-cert-${v.id}`} /> : t('table.empty'),
    },
    audit.time,
    ...audit.remark,
    actionsColumn<Volunteer>(t('table.actions'), 130, (v) => [
      ...audit.decisions(v),
      {
        label: t('common.delete'),
        onClick: () => actions.onDelete(v),
        testId: `review-delete-${v.id}`,
        danger: true,
        show: status === AuditStatus.APPROVED && v.can.delete,
      },
    ]),
  ]
}
