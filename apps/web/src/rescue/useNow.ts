import { useEffect, useState } from 'react'

/** The time, ticking every second while `on` (the answer's countdown, the minutes since the call). */
export function useNow(on = true): number {
  const [now, setNow] = useState(Date.now)
  useEffect(() => {
    if (!on) return
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [on])
  return now
}
