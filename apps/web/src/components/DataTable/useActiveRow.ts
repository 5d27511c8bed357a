import { type Key, useEffect, useRef, useState } from 'react'

/** Delay before the first row of a fresh load is highlighted. */
export const HIGHLIGHT_DELAY_MS = 50

type Options<T> = {
  rows: readonly T[]
  rowKey: (row: T) => Key
  /** When the rows were last loaded (0: nothing loaded). */
  loadedAt: number
  /** Bumped by search and refresh: they re-arm the highlight a row click stopped. */
  generation: number
  onActiveChange?: (row: T | undefined) => void
  /** A row the page selected itself (a new record, a point on a map): marked like a click, no callback. */
  selected?: Key | null
}

/**
 * The active (highlighted) row: the first row 50 ms after each load, until a row is clicked;
 * a click marks that row and stops the automatic highlight until the next search or refresh.
 */
export function useActiveRow<T>({
  rows,
  rowKey,
  loadedAt,
  generation,
  onActiveChange,
  selected,
}: Options<T>) {
  const [key, setKey] = useState<Key | undefined>()
  const armed = useRef(true)
  const latest = useRef({ rows, rowKey, onActiveChange })
  latest.current = { rows, rowKey, onActiveChange }

  const seenGeneration = useRef(generation)

  useEffect(() => {
    if (selected === undefined || selected === null) return
    armed.current = false
    setKey(selected)
  }, [selected])

  useEffect(() => {
    if (generation !== seenGeneration.current) {
      seenGeneration.current = generation
      armed.current = true
    }
    if (!loadedAt || !armed.current) return
    const timer = setTimeout(() => {
      if (!armed.current) return
      const { rows: current, rowKey: keyOf, onActiveChange: notify } = latest.current
      const first = current[0]
      setKey(first === undefined ? undefined : keyOf(first))
      notify?.(first)
    }, HIGHLIGHT_DELAY_MS)
    return () => clearTimeout(timer)
  }, [loadedAt, generation])

  const select = (row: T) => {
    armed.current = false
    setKey(rowKey(row))
    onActiveChange?.(row)
  }
  return { key, select }
}
