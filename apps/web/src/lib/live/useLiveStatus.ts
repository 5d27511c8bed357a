import { useContext } from 'react'
import type { LiveStatus } from './liveClient'
import { LiveStatusContext } from './liveContext'

/** Whether the live socket is up ('live'); anything else means the console polls. */
export function useLiveStatus(): LiveStatus {
  return useContext(LiveStatusContext)
}
