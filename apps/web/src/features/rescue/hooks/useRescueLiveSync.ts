import { LiveType } from '@aed/contracts/live'
import { MsgType } from '@aed/contracts/message'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo } from 'react'
import { useLiveFrames } from '../../../lib/live/useLiveFrames'
import { throttle } from '../../../lib/throttle'
import { rescueKeys } from '../api/keys'

/** At most one rescue list refetch per this long. */
export const RESCUE_REFRESH_MS = 2000

/** Refetches the rescues when a rescue alarm arrives (data_type 2, event_type 2) or a rescue is linked to a call (15). */
export function useRescueLiveSync() {
  const client = useQueryClient()
  const refresh = useMemo(
    () => throttle(() => void client.invalidateQueries({ queryKey: rescueKeys.all }), RESCUE_REFRESH_MS),
    [client],
  )
  useEffect(() => refresh.cancel, [refresh])
  useLiveFrames(LiveType.AID_ALARM, ({ data }) => data.event_type === MsgType.RESCUE && refresh())
  useLiveFrames(LiveType.CALL_RESCUE, () => refresh())
}
