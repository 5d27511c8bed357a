import { describe, expect, it } from 'vitest'
import { boundModel } from './cabinet-rules.ts'

describe('boundModel', () => {
  it('derives the model from characters 2-3 of the serial, empty when unknown', () => {
    expect(boundModel('M642603738')).toBe('D100')
    expect(boundModel(' A7012345 ')).toBe('D100A')
    expect(boundModel('A75')).toBe('E10A')
    expect(boundModel('A99123')).toBe('')
    expect(boundModel('A6')).toBe('')
    expect(boundModel(undefined)).toBe('')
  })
})
