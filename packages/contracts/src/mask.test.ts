import { describe, expect, it } from 'vitest'
import { maskEmail, maskPhone } from './mask.ts'

describe('masking', () => {
  it('keeps the first 3 and last 4 digits of a phone', () => {
    expect(maskPhone('13800001234')).toBe('138****1234')
    expect(maskPhone('057188231234')).toBe('057****1234')
    expect(maskPhone(null)).toBeNull()
  })
  it('keeps the first character and the domain of an email', () => {
    expect(maskEmail('zhangsan@aed.cn')).toBe('z***@aed.cn')
    expect(maskEmail('bad')).toBe('bad')
  })
})
