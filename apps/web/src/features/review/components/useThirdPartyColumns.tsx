import { AuditStatus, type ThirdPartyAed } from '@aed/contracts/review'
import { Space } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import { actionsColumn } from '../../../components/TableColumns/actionsColumn'
import { dateTimeColumn } from '../../../components/TableColumns/dateTimeColumn'
import { DuplicateTag } from './DuplicateTag'
import { ReviewImages } from './ReviewImages'
import { type Submission, thirdPartySubmission } from './submission'

type Actions = {
  onPass: (s: Submission) => void
  onReject: (s: Submission) => void
  onCompare: (s: Submission) => void
  onEdit: (a: ThirdPartyAed) => void
  onDelete: (a: ThirdPartyAed) => void
}

/** Columns of a third-party AED tab: pass and reject in review (can.audit), edit and delete (can.delete) once approved. */
export function useThirdPartyColumns(status: number, actions: Actions): ColumnsType<ThirdPartyAed> {
  const { t } = useTranslation()
  const dash = t('table.empty')
  const inReview = status === AuditStatus.IN_REVIEW
  const approved = status === AuditStatus.APPROVED
  const columns: ColumnsType<ThirdPartyAed> = [
    {
      title: t('review.brand'),
      dataIndex: 'brand',
      width: 150,
      render: (brand: string, a) => (
        <Space size={4} wrap>
          {brand}
          <DuplicateTag
            duplicates={a.duplicates}
            onOpen={() => actions.onCompare(thirdPartySubmission(a))}
            testId={`review-duplicates-${a.id}`}
          />
        </Space>
      ),
    },
    { title: t('review.location'), dataIndex: 'location', width: 220, ellipsis: true },
    {
      title: t('review.locationDesc'),
      dataIndex: 'location_desc',
      width: 160,
      ellipsis: true,
      render: (v: string | null) => v || dash,
    },
    {
      title: t('review.installImgs'),
      dataIndex: 'install_imgs',
      width: 130,
      render: (urls: string[], a) => <ReviewImages urls={urls.slice(0, 2)} testId={`review-imgs-${a.id}`} />,
    },
    { title: t('review.submitter'), dataIndex: 'submitter_name', width: 110 },
    { title: t('review.phone'), dataIndex: 'submitter_phone', width: 130 },
    inReview
      ? dateTimeColumn<ThirdPartyAed>(t('review.submitTime'), 'create_time')
      : dateTimeColumn<ThirdPartyAed>(t('review.auditTime'), 'audit_time'),
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
    actionsColumn<ThirdPartyAed>(t('table.actions'), 130, (a) => [
      {
        label: t('review.pass'),
        onClick: () => actions.onPass(thirdPartySubmission(a)),
        testId: `review-pass-${a.id}`,
        show: inReview && a.can.audit,
      },
      {
        label: t('review.reject'),
        onClick: () => actions.onReject(thirdPartySubmission(a)),
        testId: `review-reject-${a.id}`,
        danger: true,
        show: inReview && a.can.audit,
      },
      {
        label: t('common.edit'),
        onClick: () => actions.onEdit(a),
        testId: `review-edit-${a.id}`,
        // Read-only members open it too: the form is disabled and OK says 暂无权限! (spec 5).
        show: approved,
      },
      {
        label: t('common.delete'),
        onClick: () => actions.onDelete(a),
        testId: `review-delete-${a.id}`,
        danger: true,
        show: approved && a.can.delete,
      },
    ]),
  )
  return columns
}
