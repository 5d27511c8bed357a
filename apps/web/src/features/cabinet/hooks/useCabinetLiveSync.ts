import { LiveType } from '@aed/contracts/live'
import { useQueryClient } from '@tanstack/react-query'
import { useLiveFrames } from '../../../lib/live/useLiveFrames'
import { useThrottled } from '../../../lib/live/useThrottled'
import { cabinetKeys } from '../api/keys'

/** At most one cabinet list refetch per this long. */
export const CABINET_REFRESH_MS = 3000

/**
 * Refetches the cabinet list when a cabinet's door or connection changes (frame 17) or a door
 * alarm arrives (4), and when the status of a bound AED shown on the page changes (11).
 */
export function useCabinetLiveSync(shownDevices: readonly (string | null)[]) {
  const client = useQueryClient()
  const refresh = useThrottled(
    () => void client.invalidateQueries({ queryKey: cabinetKeys.lists() }),
    CABINET_REFRESH_MS,
  )
  useLiveFrames(LiveType.CABINET, () => refresh())
  useLiveFrames(LiveType.CABINET_DOOR, () => refresh())
  useLiveFrames(LiveType.DEVICE_STATUS, ({ data }) => shownDevices.includes(data.device_sn) && refresh())
}
