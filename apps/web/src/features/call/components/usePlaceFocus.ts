import { useEffect, useRef, useState } from 'react'

/** The wait between a place found by the search and the map zooming to it (zoom 16), as on the responder form. */
export const SEARCH_ZOOM_DELAY_MS = 500

/** The map picker's focus key, bumped a moment after a search result is chosen (its dropdown closes first). */
export function usePlaceFocus() {
  const [key, setKey] = useState(0)
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined)
  useEffect(() => () => clearTimeout(timer.current), [])
  const later = () => {
    clearTimeout(timer.current)
    timer.current = setTimeout(() => setKey((n) => n + 1), SEARCH_ZOOM_DELAY_MS)
  }
  return { key, later }
}
