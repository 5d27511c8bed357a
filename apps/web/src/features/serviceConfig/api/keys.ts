import { resourceKeys } from '../../../lib/queryKeys'

const resource = resourceKeys('service-config')

/** Query keys of the service configurations: lists, details and a configuration's delivery log. */
export const serviceConfigKeys = {
  ...resource,
  deliveries: (id: number) => [...resource.detail(id), 'deliveries'] as const,
  deliveryPage: (id: number, query: object) => [...resource.detail(id), 'deliveries', query] as const,
}
