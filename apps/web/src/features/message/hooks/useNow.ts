import { useEffect, useState } from 'react'

/** The current time, renewed every `ms` while `active`. */
export function useNow(active: boolean, ms = 30_000) {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!active) return
    setNow(Date.now())
    const timer = setInterval(() => setNow(Date.now()), ms)
    return () => clearInterval(timer)
  }, [active, ms])
  return now
}
