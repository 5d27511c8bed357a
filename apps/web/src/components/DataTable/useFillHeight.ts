import { type RefObject, useEffect, useState } from 'react'

export const MEASURE_DELAY_MS = 500
export const PAGINATION_HEIGHT = 48
/** Height of one header row of a middle-size antd table. */
export const TABLE_HEADER_HEIGHT = 55

/** The body height that fits the table into its container, measured 500 ms after mount and on resize. */
export function useFillHeight(ref: RefObject<HTMLElement | null>, enabled: boolean, withPagination: boolean) {
  const [height, setHeight] = useState<number | undefined>()
  useEffect(() => {
    if (!enabled) return
    const measure = () => {
      const box = ref.current?.clientHeight ?? 0
      const body = box - TABLE_HEADER_HEIGHT - (withPagination ? PAGINATION_HEIGHT : 0)
      setHeight(body > 0 ? body : undefined)
    }
    const timer = setTimeout(measure, MEASURE_DELAY_MS)
    window.addEventListener('resize', measure)
    return () => {
      clearTimeout(timer)
      window.removeEventListener('resize', measure)
    }
  }, [ref, enabled, withPagination])
  return height
}
