import { resourceKeys } from '../../../lib/queryKeys'

/** Query keys of the service configurations: lists and details. */
export const serviceConfigKeys = resourceKeys('service-config')
