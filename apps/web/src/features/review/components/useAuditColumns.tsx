import { AuditStatus, type Duplicate } from '@aed/contracts/review'
import { Space } from 'antd'
import type { ColumnType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import type { RowAction } from '../../../components/RowActions/RowActions'
import { dateTimeColumn } from '../../../components/TableColumns/dateTimeColumn'
import { DuplicateTag } from './DuplicateTag'
import type { Submission } from './submission'

type Reviewed = {
  id: number
  duplicates: Duplicate[]
  rejected_reason: string | null
  create_time: string
  audit_time: string | null
  can: { audit: boolean }
}

export type DecisionActions = {
  onPass: (s: Submission) => void
  onReject: (s: Submission) => void
  onCompare: (s: Submission) => void
}

/**
 * The columns both review lists share: the first one with its possible-duplicates tag, submit
 * time in review and audit time after, the remark on the rejected tab, and pass and reject
 * (can.audit) in review.
 */
export function useAuditColumns<T extends Reviewed>(
  status: number,
  toSubmission: (row: T) => Submission,
  actions: DecisionActions,
) {
  const { t } = useTranslation()
  const inReview = status === AuditStatus.IN_REVIEW
  const named = (title: string, dataIndex: keyof T & string, width: number): ColumnType<T> => ({
    title,
    dataIndex,
    width,
    render: (name: string, row) => (
      <Space size={4} wrap>
        {name}
        <DuplicateTag
          duplicates={row.duplicates}
          onOpen={() => actions.onCompare(toSubmission(row))}
          testId={`review-duplicates-${row.id}`}
        />
      </Space>
    ),
  })
  const time = inReview
    ? dateTimeColumn<T>(t('review.submitTime'), 'create_time')
    : dateTimeColumn<T>(t('review.auditTime'), 'audit_time')
  const remark: ColumnType<T>[] =
    status === AuditStatus.REJECTED
      ? [
          {
            title: t('review.remark'),
            dataIndex: 'rejected_reason',
            width: 200,
            ellipsis: true,
            render: (v: string | null) => v || t('table.empty'),
          },
        ]
      : []
  const decisions = (row: T): RowAction[] => [
    {
      label: t('review.pass'),
      onClick: () => actions.onPass(toSubmission(row)),
      testId: `review-pass-${row.id}`,
      show: inReview && row.can.audit,
    },
    {
      label: t('review.reject'),
      onClick: () => actions.onReject(toSubmission(row)),
      testId: `review-reject-${row.id}`,
      danger: true,
      show: inReview && row.can.audit,
    },
  ]
  return { named, time, remark, decisions }
}
