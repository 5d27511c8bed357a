import { LiveType } from '@aed/contracts/live'
import { MsgType } from '@aed/contracts/message'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo } from 'react'
import { useLiveFrames } from '../../../lib/live/useLiveFrames'
import { throttle } from '../../../lib/throttle'
import { callKeys } from '../api/keys'

/** At most one call list refetch per this long, however many calls arrive. */
export const CALL_REFRESH_MS = 2000

/**
 * Refetches the calls when a call arrives: its live alarm (data_type 2, event_type 1), or its
 * message when the alarm is not pushed.
 */
export function useCallLiveSync() {
  const client = useQueryClient()
  const refresh = useMemo(
    () => throttle(() => void client.invalidateQueries({ queryKey: callKeys.all }), CALL_REFRESH_MS),
    [client],
  )
  useEffect(() => refresh.cancel, [refresh])
  useLiveFrames(LiveType.AID_ALARM, ({ data }) => data.event_type === MsgType.CALL && refresh())
  useLiveFrames(LiveType.MESSAGE, ({ data }) => data.msg_type === MsgType.CALL && refresh())
}
