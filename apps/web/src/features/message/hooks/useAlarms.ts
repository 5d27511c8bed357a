import { type LiveAlarmData, LiveType } from '@aed/contracts/live'
import { useEffect, useState } from 'react'
import { useLiveFrames } from '../../../lib/live/useLiveFrames'
import { useSession } from '../../../lib/useSession'

/** A live alarm as the popup lists it. */
export type Alarm = LiveAlarmData & { key: string; type: 2 | 4; confirmed: boolean }

const keyOf = (type: number, d: LiveAlarmData) =>
  d.msg_id !== null ? `m${d.msg_id}` : `e${type}-${d.event_type}-${d.event_id}`

/**
 * The popup's alarms, newest first. An escalation re-push (same message) replaces its alarm
 * and brings it back if it was closed; a message confirmed elsewhere shows as confirmed. A new
 * token (another organisation) starts with none.
 */
export function useAlarms() {
  const [alarms, setAlarms] = useState<Alarm[]>([])
  const { token } = useSession()
  // biome-ignore lint/correctness/useExhaustiveDependencies: the token is the trigger, not an input
  useEffect(() => setAlarms([]), [token])
  const add = (type: 2 | 4, data: LiveAlarmData) => {
    const alarm: Alarm = { ...data, type, key: keyOf(type, data), confirmed: false }
    setAlarms((list) => [alarm, ...list.filter((a) => a.key !== alarm.key)])
  }
  useLiveFrames(LiveType.AID_ALARM, (frame) => add(2, frame.data))
  useLiveFrames(LiveType.CABINET_DOOR, (frame) => add(4, frame.data))
  useLiveFrames(LiveType.MESSAGE, ({ data }) => {
    if (data.is_confirm !== 1) return
    setAlarms((list) => list.map((a) => (a.msg_id === data.id ? { ...a, confirmed: true } : a)))
  })
  return {
    alarms,
    close: (key: string) => setAlarms((list) => list.filter((a) => a.key !== key)),
    closeAll: () => setAlarms([]),
  }
}
