import { describe, expect, it } from 'vitest'
import { districtName } from './coverage.presenter.ts'

describe('a district’s name on the coverage page', () => {
  it('leaves out what the region asked for already, keeping the district’s own name', () => {
    expect(districtName('330106', undefined)).toBe('浙江省杭州市西湖区')
    expect(districtName('330106', '330000')).toBe('杭州市西湖区')
    expect(districtName('330106', '330100')).toBe('西湖区')
    expect(districtName('330106', '330106')).toBe('西湖区')
    // A municipality's name is said once.
    expect(districtName('110101', undefined)).toBe('北京市东城区')
    expect(districtName('110101', '110000')).toBe('东城区')
  })

  it('has none for a district unknown or not given', () => {
    expect(districtName(null, undefined)).toBeNull()
    expect(districtName('999999', '330000')).toBeNull()
  })
})
