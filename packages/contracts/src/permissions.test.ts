import { describe, expect, it } from 'vitest'
import { modelOfSerial } from './device.ts'
import { can, levelOf } from './permissions.ts'
import { regionPrefix } from './regions.ts'

describe('device management level', () => {
  it('is the higher of the user dialog’s device row and the authority dialog’s device_reg row', () => {
    const m = (permissions: object, role_type = 1) => ({ role_type, permissions })
    expect(levelOf(m({ device: 'EDIT' }), 'device')).toBe('EDIT')
    expect(levelOf(m({ device_reg: 'ALL' }), 'device')).toBe('ALL')
    expect(levelOf(m({ device: 'EDIT', device_reg: 'READ_ONLY' }), 'device')).toBe('EDIT')
    expect(levelOf(m({ device: 'READ_ONLY', device_reg: 'ALL' }), 'device')).toBe('ALL')
    expect(levelOf(m({}), 'device')).toBeNull()
    expect(levelOf(m({}, 0), 'device')).toBe('ALL')
    // The authority dialog's own row is not widened by the user dialog's.
    expect(levelOf(m({ device: 'EDIT' }), 'device_reg')).toBeNull()
    expect(can(m({ device_reg: 'ALL' }), 'device', 'ALL')).toBe(true)
    expect(can(m({ device: 'EDIT' }), 'device', 'ALL')).toBe(false)
  })
})

describe('serials and regions', () => {
  it('derives the model from characters 2-3 of the serial', () => {
    expect(modelOfSerial('A640000001')).toBe('D100')
    expect(modelOfSerial('B750000001')).toBe('E10A')
    expect(modelOfSerial('A990000001')).toBe('')
  })

  it('matches a region and everything below it by its code prefix', () => {
    expect(regionPrefix('330000')).toBe('33')
    expect(regionPrefix('330100')).toBe('3301')
    expect(regionPrefix('330106')).toBe('330106')
    expect(regionPrefix('110000')).toBe('11')
  })
})
