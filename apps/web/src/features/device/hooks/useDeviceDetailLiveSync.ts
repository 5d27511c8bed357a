import { LiveType } from '@aed/contracts/live'
import { useQueryClient } from '@tanstack/react-query'
import { useLiveFrames } from '../../../lib/live/useLiveFrames'
import { useThrottled } from '../../../lib/live/useThrottled'
import { deviceKeys } from '../api/keys'

/** At most one refetch of an open device detail per this long. */
export const DETAIL_REFRESH_MS = 2000

/**
 * Refetches an open device detail (its basic info and record tabs) when that device's status
 * changes (frame 11) or one of its events opens or closes (16); other devices' pushes are ignored.
 */
export function useDeviceDetailLiveSync(sn: string | null) {
  const client = useQueryClient()
  const refresh = useThrottled(() => {
    if (sn) void client.invalidateQueries({ queryKey: deviceKeys.detail(`sn:${sn}`) })
  }, DETAIL_REFRESH_MS)
  useLiveFrames(LiveType.DEVICE_STATUS, ({ data }) => sn !== null && data.device_sn === sn && refresh())
  useLiveFrames(LiveType.DEVICE_EVENT, ({ data }) => sn !== null && data.device_sn === sn && refresh())
}
