import { describe, expect, it } from 'vitest'
import { boundModel, cabinetToolbar } from './cabinetRules'

const member = (role_type: number, agency_type: number) => ({ role_type, agency_type })

describe('cabinetToolbar', () => {
  it('deletes for super administrators only', () => {
    expect(cabinetToolbar(member(0, 0), true).mayDelete).toBe(true)
    expect(cabinetToolbar(member(0, 2), true).mayDelete).toBe(true)
    expect(cabinetToolbar(member(1, 0), true).mayDelete).toBe(false)
    expect(cabinetToolbar(member(2, 2), false).mayDelete).toBe(false)
  })

  it('assigns for super administrators of ordinary organisations who may edit', () => {
    expect(cabinetToolbar(member(0, 2), true).mayAssign).toBe(true)
    expect(cabinetToolbar(member(0, 0), true).mayAssign).toBe(false)
    expect(cabinetToolbar(member(0, 1), true).mayAssign).toBe(false)
    expect(cabinetToolbar(member(1, 2), true).mayAssign).toBe(false)
    expect(cabinetToolbar(member(0, 2), false).mayAssign).toBe(false)
  })

  it('imports outside ordinary organisations when not read-only, picking the organisation in system and general agents', () => {
    expect(cabinetToolbar(member(1, 0), true)).toMatchObject({ mayImport: true, pickAgency: true })
    expect(cabinetToolbar(member(0, 1), true)).toMatchObject({ mayImport: true, pickAgency: true })
    expect(cabinetToolbar(member(0, 2), true)).toMatchObject({ mayImport: false, pickAgency: false })
    expect(cabinetToolbar(member(1, 0), false).mayImport).toBe(false)
    expect(cabinetToolbar(null, true)).toMatchObject({ mayImport: false, mayAssign: false, mayDelete: false })
  })
})

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
