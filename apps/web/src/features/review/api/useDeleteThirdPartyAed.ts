import { reviewApi } from '@aed/contracts/review'
import { useMutation } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { useInvalidateReview } from './useInvalidateReview'

/** Deletes an approved third-party AED (删除成功！ is the server's). */
export function useDeleteThirdPartyAed() {
  const invalidate = useInvalidateReview('third_party')
  return useMutation({
    mutationFn: (id: number) => sendApi(reviewApi.deleteThirdPartyAed, { params: { id } }),
    onSuccess: invalidate,
  })
}
