import { useEffect, useRef } from 'react'

/** `fn` run once `ms` after the last of a burst of calls (the latest `fn` each time). */
export function useDebouncedCallback(fn: () => void, ms: number) {
  const latest = useRef(fn)
  latest.current = fn
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  return () => {
    clearTimeout(timer.current)
    timer.current = setTimeout(() => latest.current(), ms)
  }
}
