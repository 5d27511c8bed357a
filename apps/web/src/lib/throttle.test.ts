import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { throttle } from './throttle'

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('throttle', () => {
  it('runs at once, then once at the end of each 2 s window however often it is called', () => {
    const fn = vi.fn()
    const call = throttle(fn, 2000)
    call()
    expect(fn).toHaveBeenCalledTimes(1)
    for (let i = 0; i < 10; i++) {
      vi.advanceTimersByTime(150)
      call()
    }
    expect(fn).toHaveBeenCalledTimes(1)
    vi.advanceTimersByTime(500)
    expect(fn).toHaveBeenCalledTimes(2)
    vi.advanceTimersByTime(5000)
    expect(fn).toHaveBeenCalledTimes(2)
    call()
    expect(fn).toHaveBeenCalledTimes(3)
  })
})
