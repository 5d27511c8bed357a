import { useCallback, useState } from 'react'

/** A yes/no this phone remembers (the AED already fetched), kept across reloads of the page. */
export function useStoredFlag(key: string): [boolean, () => void] {
  const [on, setOn] = useState(() => {
    try {
      return localStorage.getItem(key) === '1'
    } catch {
      return false
    }
  })
  const set = useCallback(() => {
    setOn(true)
    try {
      localStorage.setItem(key, '1')
    } catch {
      // Not kept: it holds until the page is reloaded.
    }
  }, [key])
  return [on, set]
}
