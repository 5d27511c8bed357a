import { LiveType } from '@aed/contracts/live'
import { useLiveFrames } from '../../../lib/live/useLiveFrames'
import { useThrottledRefetch } from '../../../lib/live/useThrottledRefetch'
import { deviceKeys } from '../api/keys'

/** At most one refetch of an open device detail per this long. */
export const DETAIL_REFRESH_MS = 2000

/**
 * Refetches an open device detail (its basic info and record tabs) when that device's status
 * changes (frame 11) or one of its events opens or closes (16); other devices' pushes are ignored.
 */
export function useDeviceDetailLiveSync(sn: string | null) {
  const refresh = useThrottledRefetch(sn ? deviceKeys.detail(`sn:${sn}`) : null, DETAIL_REFRESH_MS)
  useLiveFrames(LiveType.DEVICE_STATUS, ({ data }) => sn !== null && data.device_sn === sn && refresh())
  useLiveFrames(LiveType.DEVICE_EVENT, ({ data }) => sn !== null && data.device_sn === sn && refresh())
}
