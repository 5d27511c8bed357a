import { resourceKeys } from '../../../lib/queryKeys'

const resource = resourceKeys('review')

/** What is reviewed: public volunteers or third-party AEDs. */
export type ReviewKind = 'volunteer' | 'third_party'

/** Query keys of 公众审核: a tab's page of one kind, and the backend config. */
export const reviewKeys = {
  ...resource,
  kind: (kind: ReviewKind) => [...resource.lists(), kind] as const,
  page: (kind: ReviewKind, status: number, params: object) =>
    [...resource.lists(), kind, status, params] as const,
  sysConfig: ['review', 'sys-config'] as const,
}
