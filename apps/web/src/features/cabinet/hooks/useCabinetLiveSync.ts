import { LiveType } from '@aed/contracts/live'
import { useLiveFrames } from '../../../lib/live/useLiveFrames'
import { useThrottledRefetch } from '../../../lib/live/useThrottledRefetch'
import { cabinetKeys } from '../api/keys'

/** At most one cabinet list refetch per this long. */
export const CABINET_REFRESH_MS = 3000

/**
 * Refetches the cabinet list when a cabinet's door or connection changes (frame 17) or a door
 * alarm arrives (4), and when the status of a bound AED shown on the page changes (11).
 */
export function useCabinetLiveSync(shownDevices: readonly (string | null)[]) {
  const refresh = useThrottledRefetch(cabinetKeys.lists(), CABINET_REFRESH_MS)
  useLiveFrames(LiveType.CABINET, () => refresh())
  useLiveFrames(LiveType.CABINET_DOOR, () => refresh())
  useLiveFrames(LiveType.DEVICE_STATUS, ({ data }) => shownDevices.includes(data.device_sn) && refresh())
}
