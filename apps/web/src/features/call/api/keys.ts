import { resourceKeys } from '../../../lib/queryKeys'

/** Query keys of the emergency calls (呼救事件). */
export const callKeys = resourceKeys('call')
