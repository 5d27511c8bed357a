import { LiveType } from '@aed/contracts/live'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo } from 'react'
import { deviceKeys } from '../../features/device/api/keys'
import { useLiveFrames } from '../../lib/live/useLiveFrames'
import { throttle } from '../../lib/throttle'

/** At most one device refetch per this long, however many devices change. */
export const DEVICE_REFRESH_MS = 2000

/**
 * Keeps the open device lists in step with the devices' pushed status changes; an open detail
 * follows its own device (features/device/hooks/useDeviceDetailLiveSync).
 */
export function useDeviceLiveSync() {
  const client = useQueryClient()
  const refresh = useMemo(
    () => throttle(() => void client.invalidateQueries({ queryKey: deviceKeys.lists() }), DEVICE_REFRESH_MS),
    [client],
  )
  useEffect(() => refresh.cancel, [refresh])
  useLiveFrames(LiveType.DEVICE_STATUS, refresh)
}
