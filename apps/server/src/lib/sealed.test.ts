import { describe, expect, it } from 'vitest'
import { createSealer, newDeviceSecret } from './sealed.ts'

describe('sealed secrets', () => {
  it('opens what it sealed, and nothing sealed under another key or changed', () => {
    const a = createSealer('key-a')
    const secret = newDeviceSecret()
    expect(secret).toMatch(/^[0-9a-f]{64}$/)
    const sealed = a.seal(secret)
    expect(sealed).not.toContain(secret)
    expect(a.open(sealed)).toBe(secret)
    // A fresh IV each time: the same secret never seals to the same text.
    expect(a.seal(secret)).not.toBe(sealed)
    expect(() => createSealer('key-b').open(sealed)).toThrow()
    const parts = sealed.split('.')
    parts[3] = `${parts[3].slice(0, -2)}AA`
    expect(() => a.open(parts.join('.'))).toThrow()
    expect(() => a.open('plain')).toThrow('not a sealed value')
  })
})
