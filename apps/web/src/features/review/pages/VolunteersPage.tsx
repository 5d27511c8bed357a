import { AuditStatus, type Volunteer } from '@aed/contracts/review'
import { useTranslation } from 'react-i18next'
import { DataTable } from '../../../components/DataTable/DataTable'
import { useListState } from '../../../components/DataTable/useListState'
import { ListPage } from '../../../components/ListPage/ListPage'
import { withoutActions } from '../../../components/TableColumns/actionsColumn'
import { useVolunteerList } from '../api/useVolunteerList'
import { AuditTabs } from '../components/AuditTabs'
import { ReviewExportButton } from '../components/ReviewExportButton'
import { TAB_KEY, useAuditTab } from '../components/useAuditTab'
import { useConfirmDeleteVolunteer } from '../components/useConfirmDeleteReview'
import { useReviewDecisions } from '../components/useReviewDecisions'
import { useVolunteerColumns } from '../components/useVolunteerColumns'
import { useVolunteerFilterFields } from '../components/useVolunteerFilterFields'
import '../review.css'

/**
 * /backendManagement/volunteer, 公共志愿者: the tabs 审核中, 审核通过 and 已驳回 over the same
 * filters (kept in the URL); pass and reject in review, delete and export once approved.
 */
export function VolunteersPage() {
  const { t } = useTranslation()
  const { status, switchTab } = useAuditTab()
  const list = useListState([TAB_KEY])
  const rows = useVolunteerList(status, list)
  const decisions = useReviewDecisions('volunteer')
  const columns = useVolunteerColumns(status, {
    onPass: decisions.pass,
    onReject: decisions.reject,
    onCompare: decisions.compare,
    onDelete: useConfirmDeleteVolunteer(),
  })
  const shown = list.cleared ? [] : (rows.data?.resource ?? [])
  const anyAction = shown.some((v) =>
    status === AuditStatus.APPROVED ? v.can.delete : status === AuditStatus.IN_REVIEW && v.can.audit,
  )
  const canExport = status === AuditStatus.APPROVED && (rows.data?.can.export ?? false)

  return (
    <ListPage
      testId="volunteers-page"
      list={list}
      fields={useVolunteerFilterFields()}
      title={t('review.volunteers')}
      extra={canExport && <ReviewExportButton kind="volunteer" filters={list.filters} />}
      dialogs={decisions.dialogs}
    >
      <AuditTabs status={status} onChange={switchTab} />
      <DataTable<Volunteer>
        list={list}
        columns={anyAction ? columns : withoutActions(columns)}
        rowKey={(v) => v.id}
        query={rows}
      />
    </ListPage>
  )
}
