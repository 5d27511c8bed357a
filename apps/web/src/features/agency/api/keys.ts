import { resourceKeys } from '../../../lib/queryKeys'

/** Query keys of the organisations: lists, details and the tree. */
export const agencyKeys = {
  ...resourceKeys('agency'),
  tree: () => ['agency', 'tree'] as const,
}
