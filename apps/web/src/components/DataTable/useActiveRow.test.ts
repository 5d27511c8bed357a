import { act, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { HIGHLIGHT_DELAY_MS, useActiveRow } from './useActiveRow'

type Row = { id: number }
const rows: Row[] = [{ id: 1 }, { id: 2 }]

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

function setup() {
  const onActiveChange = vi.fn()
  const hook = renderHook(
    (p: { loadedAt: number; generation: number }) =>
      useActiveRow({ rows, rowKey: (r) => r.id, onActiveChange, ...p }),
    { initialProps: { loadedAt: 0, generation: 0 } },
  )
  return { ...hook, onActiveChange }
}

describe('useActiveRow', () => {
  it('marks the first row exactly 50 ms after a load', () => {
    const { result, rerender, onActiveChange } = setup()
    rerender({ loadedAt: 1, generation: 0 })
    act(() => vi.advanceTimersByTime(HIGHLIGHT_DELAY_MS - 1))
    expect(result.current.key).toBeUndefined()
    act(() => vi.advanceTimersByTime(1))
    expect(result.current.key).toBe(1)
    expect(onActiveChange).toHaveBeenLastCalledWith(rows[0])
  })

  it('a click stops the highlight of later loads; a new search re-arms it', () => {
    const { result, rerender } = setup()
    rerender({ loadedAt: 1, generation: 0 })
    act(() => result.current.select(rows[1]))
    act(() => vi.advanceTimersByTime(100))
    expect(result.current.key).toBe(2)
    rerender({ loadedAt: 2, generation: 0 })
    act(() => vi.advanceTimersByTime(100))
    expect(result.current.key).toBe(2)
    rerender({ loadedAt: 3, generation: 1 })
    act(() => vi.advanceTimersByTime(100))
    expect(result.current.key).toBe(1)
  })

  it('marks a row the page selects, and no longer the first row of later loads', () => {
    const onActiveChange = vi.fn()
    const { result, rerender } = renderHook(
      (p: { loadedAt: number; selected?: number }) =>
        useActiveRow({ rows, rowKey: (r) => r.id, onActiveChange, generation: 0, ...p }),
      { initialProps: { loadedAt: 0 } as { loadedAt: number; selected?: number } },
    )
    rerender({ loadedAt: 0, selected: 2 })
    expect(result.current.key).toBe(2)
    rerender({ loadedAt: 1, selected: 2 })
    act(() => vi.advanceTimersByTime(100))
    expect(result.current.key).toBe(2)
    expect(onActiveChange).not.toHaveBeenCalled()
  })
})
