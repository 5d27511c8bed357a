import { resourceKeys } from '../../../lib/queryKeys'

/** Query keys of the rescues (急救事件). */
export const rescueKeys = resourceKeys('rescue')
