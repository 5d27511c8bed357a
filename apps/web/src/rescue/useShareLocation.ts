import { useEffect, useRef } from 'react'
import { throttle } from '../lib/throttle'
import type { Position } from './api'

/** At most one position a 15 s: enough for the dispatcher's map, light on the phone and server. */
export const SHARE_MS = 15_000

/**
 * Posts the phone's position with `send` while `on`: the first at once, then at most once per
 * 15 s, always the newest (a fix that came between two posts goes with the next).
 */
export function useShareLocation(on: boolean, at: Position | null, send: (at: Position) => void) {
  const latest = useRef(at)
  latest.current = at
  const sendRef = useRef(send)
  sendRef.current = send
  const post = useRef<ReturnType<typeof throttle> | null>(null)

  useEffect(() => {
    if (!on) return
    const share = throttle(() => {
      if (latest.current) sendRef.current(latest.current)
    }, SHARE_MS)
    post.current = share
    return () => {
      share.cancel()
      post.current = null
    }
  }, [on])

  useEffect(() => {
    if (on && at) post.current?.()
  }, [on, at])
}
