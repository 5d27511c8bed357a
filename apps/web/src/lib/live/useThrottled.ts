import { useEffect, useMemo, useRef } from 'react'
import { throttle } from '../throttle'

/**
 * `fn` (the latest one) run at once, then at most once per `ms` while mounted: a page's answer
 * to live frames, so a busy network refetches a page every few seconds, not on every push.
 */
export function useThrottled(fn: () => void, ms: number) {
  const latest = useRef(fn)
  latest.current = fn
  const run = useMemo(() => throttle(() => latest.current(), ms), [ms])
  useEffect(() => run.cancel, [run])
  return run
}
