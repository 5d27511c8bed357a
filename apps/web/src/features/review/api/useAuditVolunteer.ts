import type { BodyIn } from '@aed/contracts'
import { reviewApi } from '@aed/contracts/review'
import { useMutation } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { useInvalidateReview } from './useInvalidateReview'

export type AuditBody = BodyIn<typeof reviewApi.auditVolunteer>

/** Passes (audit_status 2) or rejects (0, with the reason) a volunteer in review. */
export function useAuditVolunteer() {
  const invalidate = useInvalidateReview('volunteer')
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: AuditBody }) =>
      sendApi(reviewApi.auditVolunteer, { params: { id }, body }),
    onSuccess: invalidate,
  })
}
