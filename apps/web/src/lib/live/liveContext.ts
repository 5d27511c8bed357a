import type { LiveFrame } from '@aed/contracts/live'
import { createContext } from 'react'
import type { LiveStatus } from './liveClient'

export type LiveType = LiveFrame['data_type']
/** The frame shape of one data_type (2 and 4 share theirs). */
export type FrameOf<T extends LiveType> = LiveFrame extends infer F
  ? F extends { data_type: infer D }
    ? T extends D
      ? F
      : never
    : never
  : never
type Handler = (frame: LiveFrame) => void

/** Hands each frame to the handlers of its data_type. */
export function createLiveBus() {
  const handlers = new Map<number, Set<Handler>>()
  return {
    subscribe(type: LiveType, handler: Handler) {
      const set = handlers.get(type) ?? new Set()
      handlers.set(type, set)
      set.add(handler)
      return () => {
        set.delete(handler)
      }
    },
    emit(frame: LiveFrame) {
      for (const handler of handlers.get(frame.data_type) ?? []) handler(frame)
    },
  }
}
export type LiveBus = ReturnType<typeof createLiveBus>

/** Outside a provider nothing arrives and the socket counts as down (the count is polled). */
export const LiveBusContext = createContext<LiveBus>(createLiveBus())
export const LiveStatusContext = createContext<LiveStatus>('down')
