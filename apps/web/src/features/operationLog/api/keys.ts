import { resourceKeys } from '../../../lib/queryKeys'

/** Query keys of the operation log. */
export const operationLogKeys = resourceKeys('operation-log')
