import { useQueryClient } from '@tanstack/react-query'
import { type ReviewKind, reviewKeys } from './keys'

/** After a decision, an edit or a delete: every tab of that kind (a row moves between tabs). */
export function useInvalidateReview(kind: ReviewKind) {
  const client = useQueryClient()
  return () => void client.invalidateQueries({ queryKey: reviewKeys.kind(kind) })
}
