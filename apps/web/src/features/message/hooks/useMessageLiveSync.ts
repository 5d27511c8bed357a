import { LiveType } from '@aed/contracts/live'
import { useQueryClient } from '@tanstack/react-query'
import { useLiveFrames } from '../../../lib/live/useLiveFrames'
import { messageKeys } from '../api/keys'
import { applyMessage } from '../api/messageCache'

/** Applies the pushed count (12) and created, confirmed or escalated messages (13) to the caches. */
export function useMessageLiveSync() {
  const client = useQueryClient()
  useLiveFrames(LiveType.UNCONFIRMED, (frame) => client.setQueryData(messageKeys.amount(), frame.data))
  useLiveFrames(LiveType.MESSAGE, (frame) => applyMessage(client, frame.data))
}
