import { resourceKeys } from '../../../lib/queryKeys'

const resource = resourceKeys('cabinet')

/** Query keys of the cabinet page: the list, a cabinet's self-checks and bind records, the import template. */
export const cabinetKeys = {
  ...resource,
  records: (id: number, page: number) => [...resource.detail(id), 'records', page] as const,
  binds: (id: number, page: number) => [...resource.detail(id), 'binds', page] as const,
  template: ['cabinet', 'upload-info'] as const,
  commands: (id: number) => [...resource.detail(id), 'commands'] as const,
}
