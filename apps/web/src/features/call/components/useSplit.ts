import { type KeyboardEvent, type PointerEvent, type RefObject, useEffect, useState } from 'react'

/** The spec's panes: the map takes 55% and the list 45% at first, neither less than 200 px. */
export const TOP_SHARE = 0.55
export const MIN_PANE_PX = 200
/** One arrow key press moves the divider this share of the height. */
const KEY_STEP = 0.05
/** The box fills the window below where it starts, less this gap, and is never lower than this. */
export const BOTTOM_GAP_PX = 24
export const MIN_BOX_PX = 560

/** The box's height: from its top (in the page) to the window's bottom, at least MIN_BOX_PX. */
export function boxHeight(top: number, windowHeight: number): number {
  return Math.max(MIN_BOX_PX, Math.round(windowHeight - top - BOTTOM_GAP_PX))
}

/** The top pane's share, kept so that both panes stay at least `MIN_PANE_PX` high in `total`. */
export function clampShare(share: number, total: number): number {
  if (total <= 2 * MIN_PANE_PX) return TOP_SHARE
  const least = MIN_PANE_PX / total
  return Math.min(1 - least, Math.max(least, share))
}

/**
 * The divider between two stacked panes of `box`: dragged with the pointer, or moved with the
 * arrow keys. Gives the top pane's share, the box's height in px (filling the window below
 * it; 0 until measured) and the divider's handlers.
 */
export function useSplit(box: RefObject<HTMLElement | null>) {
  const [share, setShare] = useState(TOP_SHARE)
  const [total, setTotal] = useState(0)

  useEffect(() => {
    const measure = () => {
      const el = box.current
      if (el) setTotal(boxHeight(el.getBoundingClientRect().top + window.scrollY, window.innerHeight))
    }
    measure()
    // What is above the box (the tab's filters, drawn after it) moves it down as it appears.
    const observer = new ResizeObserver(measure)
    if (box.current?.parentElement) observer.observe(box.current.parentElement)
    window.addEventListener('resize', measure)
    return () => {
      observer.disconnect()
      window.removeEventListener('resize', measure)
    }
  }, [box])

  const moveTo = (clientY: number) => {
    const rect = box.current?.getBoundingClientRect()
    if (!rect?.height) return
    setShare(clampShare((clientY - rect.top) / rect.height, rect.height))
  }
  const onPointerDown = (e: PointerEvent<HTMLElement>) => {
    e.preventDefault()
    const handle = e.currentTarget
    handle.setPointerCapture?.(e.pointerId)
    const move = (ev: globalThis.PointerEvent) => moveTo(ev.clientY)
    const up = () => {
      handle.removeEventListener('pointermove', move)
      handle.removeEventListener('pointerup', up)
    }
    handle.addEventListener('pointermove', move)
    handle.addEventListener('pointerup', up)
  }
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const step = e.key === 'ArrowUp' ? -KEY_STEP : e.key === 'ArrowDown' ? KEY_STEP : 0
    if (!step) return
    e.preventDefault()
    setShare((s) => clampShare(s + step, total))
  }
  return { share: clampShare(share, total), total, handle: { onPointerDown, onKeyDown } }
}
