import { AuditStatus, type ThirdPartyAed } from '@aed/contracts/review'
import type { ColumnsType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import { actionsColumn } from '../../../components/TableColumns/actionsColumn'
import { ReviewImages } from './ReviewImages'
import { thirdPartySubmission } from './submission'
import { type DecisionActions, useAuditColumns } from './useAuditColumns'

type Actions = DecisionActions & {
  onEdit: (a: ThirdPartyAed) => void
  onDelete: (a: ThirdPartyAed) => void
}

/** Columns of a third-party AED tab: pass and reject in review (can.audit), edit and delete (can.delete) once approved. */
export function useThirdPartyColumns(status: number, actions: Actions): ColumnsType<ThirdPartyAed> {
  const { t } = useTranslation()
  const audit = useAuditColumns(status, thirdPartySubmission, actions)
  const approved = status === AuditStatus.APPROVED
  return [
    audit.named(t('review.brand'), 'brand', 150),
    { title: t('review.location'), dataIndex: 'location', width: 220, ellipsis: true },
    {
      title: t('review.locationDesc'),
      dataIndex: 'location_desc',
      width: 160,
      ellipsis: true,
      render: (v: string | null) => v || t('table.empty'),
    },
    {
      title: t('review.installImgs'),
      dataIndex: 'install_imgs',
      width: 130,
      render: (urls: string[], a) => <ReviewImages urls={urls.slice(0, 2)} testId={`review-imgs-${a.id}`} />,
    },
    { title: t('review.submitter'), dataIndex: 'submitter_name', width: 110 },
    { title: t('review.phone'), dataIndex: 'submitter_phone', width: 130 },
    audit.time,
    ...audit.remark,
    actionsColumn<ThirdPartyAed>(t('table.actions'), 130, (a) => [
      ...audit.decisions(a),
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
  ]
}
