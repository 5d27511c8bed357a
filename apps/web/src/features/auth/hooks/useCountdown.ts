import { useEffect, useState } from 'react'

/** A seconds countdown for the SMS resend button: `start(n)` runs it, 0 means idle. */
export function useCountdown() {
  const [seconds, setSeconds] = useState(0)
  useEffect(() => {
    if (seconds <= 0) return
    const timer = setTimeout(() => setSeconds((s) => s - 1), 1000)
    return () => clearTimeout(timer)
  }, [seconds])
  return { seconds, running: seconds > 0, start: setSeconds }
}
