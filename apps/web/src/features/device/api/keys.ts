import type { PageDetailType } from '@aed/contracts/device-detail'
import { resourceKeys } from '../../../lib/queryKeys'

const resource = resourceKeys('device')

/** Query keys of the device pages: lists and details (with the detail's record tabs and commands), the factory list, change records, managers, statistics. */
export const deviceKeys = {
  ...resource,
  /** A record tab of the detail; with a rescue, only the records of its span. */
  records: (sn: string, type: PageDetailType, rescueEventId?: string) =>
    rescueEventId === undefined
      ? ([...resource.detail(`sn:${sn}`), type] as const)
      : ([...resource.detail(`sn:${sn}`), type, rescueEventId] as const),
  /** The remote commands of a device (by id) and where each one is. */
  commands: (id: number) => [...resource.detail(id), 'commands'] as const,
  factory: (params: object) => ['device', 'factory', params] as const,
  changeRecord: (registerCode: string) => ['device', 'change-record', registerCode] as const,
  managers: (agencyId: number | null, name: string) => ['device', 'managers', agencyId, name] as const,
  /** A statistic of the device page (`state`, `bands`, `monthly`, `key`) for a region; no region: every region. */
  stats: (name: string, region?: string) =>
    region === undefined
      ? (['device', 'stats', name] as const)
      : (['device', 'stats', name, region] as const),
}
