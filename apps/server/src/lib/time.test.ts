import { describe, expect, it } from 'vitest'
import { formatDate, formatDateTime } from './time.ts'

describe('times in the organisations’ zone', () => {
  it('formats in Asia/Shanghai whatever the machine zone', () => {
    expect(formatDateTime(new Date('2026-11-21T16:30:05Z'))).toBe('2026-11-22 00:30:05')
    expect(formatDate(new Date('2026-11-21T15:59:59Z'))).toBe('2026-11-21')
  })
})
