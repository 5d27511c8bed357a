import type { EventKind } from '@aed/contracts/event'
import { resourceKeys } from '../../../lib/queryKeys'

const resource = resourceKeys('event')

/** Query keys of the event pages: a page of one kind's current or past events. */
export const eventKeys = {
  ...resource,
  kind: (kind: EventKind) => [...resource.lists(), kind] as const,
  page: (kind: EventKind, current: boolean, params: object) =>
    [...resource.lists(), kind, current, params] as const,
}
