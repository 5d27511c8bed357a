import { AuditStatus, type ThirdPartyAed } from '@aed/contracts/review'
import { lazy, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DataTable } from '../../../components/DataTable/DataTable'
import { useListState } from '../../../components/DataTable/useListState'
import { LazyMount } from '../../../components/LazyMount'
import { ListPage } from '../../../components/ListPage/ListPage'
import { withoutActions } from '../../../components/TableColumns/actionsColumn'
import { useThirdPartyAedList } from '../api/useThirdPartyAedList'
import { AuditTabs } from '../components/AuditTabs'
import { ReviewExportButton } from '../components/ReviewExportButton'
import { TAB_KEY, useAuditTab } from '../components/useAuditTab'
import { useConfirmDeleteThirdPartyAed } from '../components/useConfirmDeleteReview'
import { useReviewDecisions } from '../components/useReviewDecisions'
import { useThirdPartyColumns } from '../components/useThirdPartyColumns'
import { useThirdPartyFilterFields } from '../components/useThirdPartyFilterFields'
import '../review.css'

const ThirdPartyAedModal = lazy(() => import('../components/ThirdPartyAedModal'))

/**
 * /backendManagement/thirdPartyAed, 第三方AED: the three tabs filtered by brand; pass and reject
 * in review; edit (修改第三方设备信息), delete and export once approved.
 */
export function ThirdPartyAedsPage() {
  const { t } = useTranslation()
  const { status, switchTab } = useAuditTab()
  const list = useListState([TAB_KEY])
  const rows = useThirdPartyAedList(status, list)
  const decisions = useReviewDecisions('third_party')
  const [editing, setEditing] = useState<ThirdPartyAed | null>(null)
  const columns = useThirdPartyColumns(status, {
    onPass: decisions.pass,
    onReject: decisions.reject,
    onCompare: decisions.compare,
    onEdit: setEditing,
    onDelete: useConfirmDeleteThirdPartyAed(),
  })
  const shown = list.cleared ? [] : (rows.data?.resource ?? [])
  const anyAction =
    status === AuditStatus.APPROVED || (status === AuditStatus.IN_REVIEW && shown.some((a) => a.can.audit))
  const canExport = status === AuditStatus.APPROVED && (rows.data?.can.export ?? false)

  return (
    <ListPage
      testId="third-party-aeds-page"
      list={list}
      fields={useThirdPartyFilterFields()}
      title={t('review.thirdPartyAeds')}
      extra={canExport && <ReviewExportButton kind="third_party" filters={list.filters} />}
      dialogs={
        <>
          {decisions.dialogs}
          <LazyMount when={editing !== null}>
            <ThirdPartyAedModal aed={editing} onClose={() => setEditing(null)} />
          </LazyMount>
        </>
      }
    >
      <AuditTabs status={status} onChange={switchTab} />
      <DataTable<ThirdPartyAed>
        list={list}
        columns={anyAction ? columns : withoutActions(columns)}
        rowKey={(a) => a.id}
        query={rows}
      />
    </ListPage>
  )
}
