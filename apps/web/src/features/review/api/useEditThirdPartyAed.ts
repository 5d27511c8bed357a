import type { BodyIn } from '@aed/contracts'
import { reviewApi } from '@aed/contracts/review'
import { useMutation } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { useInvalidateReview } from './useInvalidateReview'

/** The edit's fields (update_type 2 is added here). */
export type ThirdPartyEditBody = Omit<
  Extract<BodyIn<typeof reviewApi.updateThirdPartyAed>, { update_type: 2 }>,
  'update_type'
>

/** Edits an approved third-party AED (update_type 2); answers the server's 修改成功！. */
export function useEditThirdPartyAed() {
  const invalidate = useInvalidateReview('third_party')
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: ThirdPartyEditBody }) =>
      sendApi(reviewApi.updateThirdPartyAed, { params: { id }, body: { update_type: 2, ...body } }),
    onSuccess: invalidate,
  })
}
