import { describe, expect, it } from 'vitest'
import {
  fallbackLevel,
  grantableLevels,
  initialRows,
  roleOptions,
  USER_ROWS,
  visibleRows,
} from './member-rules.ts'

describe('user dialog rules', () => {
  it('offers admin to super admins creating or when editing, and locks a super admin', () => {
    expect(roleOptions(false, 0)).toEqual({ values: [1, 2], locked: false })
    expect(roleOptions(false, 1)).toEqual({ values: [2], locked: false })
    expect(roleOptions(true, 1, 2)).toEqual({ values: [1, 2], locked: false })
    expect(roleOptions(true, 0, 0)).toEqual({ values: [0], locked: true })
  })

  it('lets super admins grant any level, admins read only, general users nothing', () => {
    expect(grantableLevels(0)).toContain('EDIT')
    expect(grantableLevels(1)).toEqual(['READ_ONLY'])
    expect(grantableLevels(2)).toEqual([])
  })

  it('hides permission management for general users', () => {
    expect(visibleRows(USER_ROWS, 2, ['member'])).toEqual(['device', 'aid_man', 'agency'])
    expect(visibleRows(USER_ROWS, 1, ['member'])).toEqual([...USER_ROWS])
  })

  it('starts new users read only and keeps stored levels when editing; unchecked rows default to edit', () => {
    expect(initialRows(null)).toEqual({
      device: 'READ_ONLY',
      member: 'READ_ONLY',
      aid_man: 'READ_ONLY',
      agency: 'READ_ONLY',
    })
    expect(initialRows({ device: 'ALL' })).toEqual({
      device: 'ALL',
      member: null,
      aid_man: null,
      agency: null,
    })
    expect(fallbackLevel(true, grantableLevels(0))).toBe('EDIT')
    expect(fallbackLevel(true, grantableLevels(1))).toBe('READ_ONLY')
    expect(fallbackLevel(false, grantableLevels(0))).toBe('READ_ONLY')
  })
})
