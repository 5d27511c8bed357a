import { reviewApi } from '@aed/contracts/review'
import { useMutation } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import type { AuditBody } from './useAuditVolunteer'
import { useInvalidateReview } from './useInvalidateReview'

/** Passes or rejects a third-party AED in review (update_type 1). */
export function useAuditThirdPartyAed() {
  const invalidate = useInvalidateReview('third_party')
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: AuditBody }) =>
      sendApi(reviewApi.updateThirdPartyAed, {
        params: { id },
        body: { update_type: 1, audit_status: body.audit_status, rejected_reason: body.rejected_reason },
      }),
    onSuccess: invalidate,
  })
}
