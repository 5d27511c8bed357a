import { beforeEach, describe, expect, it } from 'vitest'
import { createStorage, DAY_MS } from './storage'

describe('storage', () => {
  let clock = 1_000_000
  const now = () => clock
  beforeEach(() => {
    window.localStorage.clear()
    clock = 1_000_000
  })

  it('prefixes keys and round-trips values', () => {
    const s = createStorage(window.localStorage, 'aed__', DAY_MS, now)
    s.set('token', 'abc')
    expect(window.localStorage.getItem('aed__token')).not.toBeNull()
    expect(window.localStorage.getItem('token')).toBeNull()
    expect(s.get<string>('token')).toBe('abc')
  })

  it('expires values after one day by default', () => {
    const s = createStorage(window.localStorage, 'aed__', DAY_MS, now)
    s.set('user_info', { id: 1 })
    clock += DAY_MS - 1
    expect(s.get('user_info')).toEqual({ id: 1 })
    clock += 1
    expect(s.get('user_info')).toBeNull()
    expect(window.localStorage.getItem('aed__user_info')).toBeNull()
  })

  it('honours a custom expiry and a never-expiring value', () => {
    const s = createStorage(window.localStorage, 'aed__', DAY_MS, now)
    s.set('short', 1, 1000)
    s.set('forever', 2, null)
    clock += 5 * DAY_MS
    expect(s.get('short')).toBeNull()
    expect(s.get('forever')).toBe(2)
  })

  it('reads corrupt entries as absent', () => {
    const s = createStorage(window.localStorage, 'aed__', DAY_MS, now)
    window.localStorage.setItem('aed__bad', '{not json')
    expect(s.get('bad')).toBeNull()
  })

  it('clear removes only prefixed keys', () => {
    const s = createStorage(window.localStorage, 'aed__', DAY_MS, now)
    s.set('a', 1)
    window.localStorage.setItem('other', 'x')
    s.clear()
    expect(s.get('a')).toBeNull()
    expect(window.localStorage.getItem('other')).toBe('x')
  })
})
