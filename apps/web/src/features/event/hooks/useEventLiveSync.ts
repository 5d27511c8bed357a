import type { EventKind } from '@aed/contracts/event'
import { LiveType } from '@aed/contracts/live'
import { useLiveFrames } from '../../../lib/live/useLiveFrames'
import { useThrottledRefetch } from '../../../lib/live/useThrottledRefetch'
import { eventKeys } from '../api/keys'

/** At most one refetch of an event page per this long, however many events open and close. */
export const EVENT_REFRESH_MS = 3000

/** Refetches the page's current and past events when an event of its kind opens or closes (frame 16). */
export function useEventLiveSync(kind: EventKind) {
  const refresh = useThrottledRefetch(eventKeys.kind(kind), EVENT_REFRESH_MS)
  useLiveFrames(LiveType.DEVICE_EVENT, ({ data }) => data.kind === kind && refresh())
}
