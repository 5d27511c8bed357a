import type { Envelope } from '@aed/contracts'
import { AuditStatus } from '@aed/contracts/review'
import { lazy, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LazyMount } from '../../../components/LazyMount'
import { useConfirm } from '../../../lib/useConfirm'
import { useMessageText } from '../../../lib/useMessageText'
import { useSubmit } from '../../../lib/useSubmit'
import type { ReviewKind } from '../api/keys'
import { useAuditThirdPartyAed } from '../api/useAuditThirdPartyAed'
import { type AuditBody, useAuditVolunteer } from '../api/useAuditVolunteer'
import type { Submission } from './submission'

type AuditVariables = { id: number; body: AuditBody }

const RejectModal = lazy(() => import('./RejectModal'))
const DuplicateCompareModal = lazy(() => import('./DuplicateCompareModal'))

/**
 * 通过 and 驳回 of a tab in review, and the compare dialog of possible duplicates: passing a row
 * that has some opens the comparison first (the reviewer decides there); otherwise it asks once.
 * 审核通过！ and 提交成功！ are the spec's texts of the two outcomes.
 */
export function useReviewDecisions(kind: ReviewKind) {
  const { t } = useTranslation()
  const text = useMessageText()
  const confirm = useConfirm()
  const volunteer = useAuditVolunteer()
  const aed = useAuditThirdPartyAed()
  const audit = {
    mutateAsync: (v: AuditVariables): Promise<Envelope<unknown>> =>
      kind === 'volunteer' ? volunteer.mutateAsync(v) : aed.mutateAsync(v),
    isPending: volunteer.isPending || aed.isPending,
  }
  const [comparing, setComparing] = useState<Submission | null>(null)
  const [rejecting, setRejecting] = useState<Submission | null>(null)
  const passed = useSubmit(audit, { success: text('AUDIT_OK') })
  const rejected = useSubmit(audit, { success: text('SUBMIT_OK') })

  const passNow = (s: Submission) => passed({ id: s.id, body: { audit_status: AuditStatus.APPROVED } })
  const pass = (s: Submission) => {
    if (s.duplicates.length > 0) return setComparing(s)
    confirm({
      title: t('review.passTitle'),
      content: t('review.passConfirm', { name: s.name }),
      onOk: () => passNow(s),
    })
  }
  const reject = (s: Submission) => setRejecting(s)

  const dialogs = (
    <>
      <LazyMount when={comparing !== null}>
        <DuplicateCompareModal
          submission={comparing}
          decide={Boolean(comparing?.canAudit && comparing.audit_status === AuditStatus.IN_REVIEW)}
          passing={audit.isPending}
          onPass={async () => {
            if (comparing && (await passNow(comparing))) setComparing(null)
          }}
          onReject={() => {
            setRejecting(comparing)
            setComparing(null)
          }}
          onClose={() => setComparing(null)}
        />
      </LazyMount>
      <LazyMount when={rejecting !== null}>
        <RejectModal
          open={rejecting !== null}
          saving={audit.isPending}
          onReject={(reason) =>
            rejecting
              ? rejected({
                  id: rejecting.id,
                  body: { audit_status: AuditStatus.REJECTED, rejected_reason: reason },
                })
              : Promise.resolve(false)
          }
          onClose={() => setRejecting(null)}
        />
      </LazyMount>
    </>
  )
  return { pass, reject, compare: setComparing, dialogs }
}
