import { resourceKeys } from '../../../lib/queryKeys'

/** Query keys of the system settings, one detail per organisation ('own' for the member's). */
export const settingsKeys = resourceKeys('settings')
