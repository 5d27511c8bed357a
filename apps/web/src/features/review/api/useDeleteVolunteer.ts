import { reviewApi } from '@aed/contracts/review'
import { useMutation } from '@tanstack/react-query'
import { sendApi } from '../../../lib/api'
import { useInvalidateReview } from './useInvalidateReview'

/** Deletes an approved volunteer (删除成功！ is the server's). */
export function useDeleteVolunteer() {
  const invalidate = useInvalidateReview('volunteer')
  return useMutation({
    mutationFn: (id: number) => sendApi(reviewApi.deleteVolunteer, { params: { id } }),
    onSuccess: invalidate,
  })
}
