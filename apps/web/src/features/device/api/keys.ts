import { resourceKeys } from '../../../lib/queryKeys'

/** Query keys of the device pages: registered lists and details, the factory list, change records, managers. */
export const deviceKeys = {
  ...resourceKeys('device'),
  factory: (params: object) => ['device', 'factory', params] as const,
  changeRecord: (registerCode: string) => ['device', 'change-record', registerCode] as const,
  managers: (agencyId: number | null, name: string) => ['device', 'managers', agencyId, name] as const,
}
