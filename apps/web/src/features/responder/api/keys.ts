import { resourceKeys } from '../../../lib/queryKeys'

const resource = resourceKeys('responder')

/** Query keys of the responder page: lists, details, a responder's history, the import template. */
export const responderKeys = {
  ...resource,
  changes: (id: number) => [...resource.detail(id), 'changes'] as const,
  template: ['responder', 'upload-info'] as const,
}
