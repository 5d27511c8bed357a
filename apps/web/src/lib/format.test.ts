import { maskPhone } from '@aed/contracts/mask'
import { describe, expect, it } from 'vitest'
import { safeRedirect } from './safeRedirect'

describe('maskPhone', () => {
  // The console calls the contract directly and shows `?? ''` where there is no phone.
  it('keeps the first 3 and last 4 digits', () => {
    expect(maskPhone('13800001234')).toBe('138****1234')
    expect(maskPhone('')).toBe('')
    expect(maskPhone(null)).toBeNull()
  })
})

describe('safeRedirect', () => {
  it('accepts console paths and rejects outside or login targets', () => {
    expect(safeRedirect('/watchBoard/dashboard?formMsg=1', '/d')).toBe('/watchBoard/dashboard?formMsg=1')
    expect(safeRedirect('//evil.example', '/d')).toBe('/d')
    expect(safeRedirect('https://evil.example', '/d')).toBe('/d')
    expect(safeRedirect('/user/login?x', '/d')).toBe('/d')
    expect(safeRedirect(null, '/d')).toBe('/d')
  })
})
