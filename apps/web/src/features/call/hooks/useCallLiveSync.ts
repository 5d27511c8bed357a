import { LiveType } from '@aed/contracts/live'
import { MsgType } from '@aed/contracts/message'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useMemo, useRef } from 'react'
import { useLiveFrames } from '../../../lib/live/useLiveFrames'
import { throttle } from '../../../lib/throttle'
import { callKeys } from '../api/keys'

/** At most one call list refetch per this long, however many calls arrive. */
export const CALL_REFRESH_MS = 2000
/** At most one refetch of the selected call per this long for responders' positions (each sends one every 15 s). */
export const POSITION_REFRESH_MS = 1000

/**
 * Refetches the calls when a call arrives: its live alarm (data_type 2, event_type 1), or its
 * message when the alarm is not pushed; and when a rescue is linked to a call (15). A step of the selected call's dispatch (14) refetches it
 * and the list; a responder's new position its detail alone. Another call's dispatch marks its
 * detail stale, for when it is selected again.
 */
export function useCallLiveSync(selectedId: number | null = null) {
  const client = useQueryClient()
  const selected = useRef(selectedId)
  selected.current = selectedId
  const refresh = useMemo(
    () => throttle(() => void client.invalidateQueries({ queryKey: callKeys.all }), CALL_REFRESH_MS),
    [client],
  )
  const located = useMemo(
    () =>
      throttle(() => {
        if (selected.current !== null)
          void client.invalidateQueries({ queryKey: callKeys.detail(selected.current) })
      }, POSITION_REFRESH_MS),
    [client],
  )
  useEffect(
    () => () => {
      refresh.cancel()
      located.cancel()
    },
    [refresh, located],
  )
  useLiveFrames(LiveType.AID_ALARM, ({ data }) => data.event_type === MsgType.CALL && refresh())
  useLiveFrames(LiveType.MESSAGE, ({ data }) => data.msg_type === MsgType.CALL && refresh())
  // A rescue answered a call (the server's link job): its AED and outcome show at once.
  useLiveFrames(LiveType.CALL_RESCUE, () => refresh())
  useLiveFrames(LiveType.DISPATCH, ({ data }) => {
    if (data.call_id === null) return
    if (data.call_id !== selected.current)
      void client.invalidateQueries({ queryKey: callKeys.detail(data.call_id), refetchType: 'none' })
    else if (data.kind === 'located') located()
    else refresh()
  })
}
