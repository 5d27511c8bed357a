import { useEffect, useState } from 'react'

const SHOW_ABOVE_PX = 64

/** True while the page scrolls down past the header, when auto-hide is on. */
export function useAutoHideHeader(enabled: boolean): boolean {
  const [hidden, setHidden] = useState(false)
  useEffect(() => {
    if (!enabled) {
      setHidden(false)
      return
    }
    let last = window.scrollY
    const onScroll = () => {
      const y = window.scrollY
      setHidden(y > SHOW_ABOVE_PX && y > last)
      last = y
    }
    window.addEventListener('scroll', onScroll, { passive: true })
    return () => window.removeEventListener('scroll', onScroll)
  }, [enabled])
  return hidden
}
