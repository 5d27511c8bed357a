import { AuditStatus, type Volunteer } from '@aed/contracts/review'
import { Space } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import { actionsColumn } from '../../../components/TableColumns/actionsColumn'
import { dateTimeColumn } from '../../../components/TableColumns/dateTimeColumn'
import { DuplicateTag } from './DuplicateTag'
import { ReviewImages } from './ReviewImages'
import { type Submission, volunteerSubmission } from './submission'

type Actions = {
  onPass: (s: Submission) => void
  onReject: (s: Submission) => void
  onCompare: (s: Submission) => void
  onDelete: (v: Volunteer) => void
}

/** Columns of a volunteer tab: submit time in review, audit time after; the remark on the rejected tab. */
export function useVolunteerColumns(status: number, actions: Actions): ColumnsType<Volunteer> {
  const { t } = useTranslation()
  const dash = t('table.empty')
  const inReview = status === AuditStatus.IN_REVIEW
  const columns: ColumnsType<Volunteer> = [
    {
      title: t('review.name'),
      dataIndex: 'submitter_name',
      width: 170,
      render: (name: string, v) => (
        <Space size={4} wrap>
          {name}
          <DuplicateTag
            duplicates={v.duplicates}
            onOpen={() => actions.onCompare(volunteerSubmission(v))}
            testId={`review-duplicates-${v.id}`}
          />
        </Space>
      ),
    },
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
        url ? <ReviewImages urls={[url]} testId={`review-cert-${v.id}`} /> : dash,
    },
    inReview
      ? dateTimeColumn<Volunteer>(t('review.submitTime'), 'create_time')
      : dateTimeColumn<Volunteer>(t('review.auditTime'), 'audit_time'),
  ]
  if (status === AuditStatus.REJECTED)
    columns.push({
      title: t('review.remark'),
      dataIndex: 'rejected_reason',
      width: 200,
      ellipsis: true,
      render: (v: string | null) => v || dash,
    })
  columns.push(
    actionsColumn<Volunteer>(t('table.actions'), 130, (v) => [
      {
        label: t('review.pass'),
        onClick: () => actions.onPass(volunteerSubmission(v)),
        testId: `review-pass-${v.id}`,
        show: inReview && v.can.audit,
      },
      {
        label: t('review.reject'),
        onClick: () => actions.onReject(volunteerSubmission(v)),
        testId: `review-reject-${v.id}`,
        danger: true,
        show: inReview && v.can.audit,
      },
      {
        label: t('common.delete'),
        onClick: () => actions.onDelete(v),
        testId: `review-delete-${v.id}`,
        danger: true,
        show: status === AuditStatus.APPROVED && v.can.delete,
      },
    ]),
  )
  return columns
}
