import { useContext, useEffect, useRef } from 'react'
import { type FrameOf, LiveBusContext, type LiveType } from './liveContext'

/** Calls `handler` with every live frame of `type` while mounted (the latest handler each time). */
export function useLiveFrames<T extends LiveType>(type: T, handler: (frame: FrameOf<T>) => void) {
  const bus = useContext(LiveBusContext)
  const latest = useRef(handler)
  latest.current = handler
  useEffect(() => bus.subscribe(type, (frame) => latest.current(frame as FrameOf<T>)), [bus, type])
}
