import { describe, expect, it } from 'vitest'
import {
  isLeafRegion,
  regionChildren,
  regionFullName,
  regionPath,
  regionTree,
  searchRegions,
} from './regions.ts'

describe('administrative divisions', () => {
  it('has the 34 provincial regions', () => {
    expect(regionTree()).toHaveLength(34)
    expect(regionChildren()?.[0]).toMatchObject({ code: '110000', name: '北京市' })
  })

  it('gives municipalities a single city-level node holding every district', () => {
    for (const p of ['110000', '120000', '310000', '500000']) expect(regionChildren(p)).toHaveLength(1)
    const bj = regionChildren('110100')!
    expect(bj.map((d) => d.name)).toContain('朝阳区')
    // Chongqing's counties (5002xx) sit under the same node as its districts.
    expect(regionChildren('500100')!.some((d) => d.code.startsWith('5002'))).toBe(true)
  })

  it('puts Hong Kong and Macau districts directly under them, and Taiwan has no children', () => {
    expect(regionChildren('810000')!.map((d) => d.name)).toContain('湾仔区')
    expect(regionChildren('820000')!.length).toBeGreaterThan(5)
    expect(regionChildren('710000')).toEqual([])
  })

  it('resolves paths, full names and leaves', () => {
    expect(regionPath('330106')).toEqual(['330000', '330100', '330106'])
    expect(regionFullName('330106')).toBe('浙江省杭州市西湖区')
    expect(regionFullName('110105')).toBe('北京市朝阳区')
    expect(isLeafRegion('330106')).toBe(true)
    expect(isLeafRegion('330100')).toBe(false)
    expect(isLeafRegion('441900')).toBe(true) // 东莞市 has no districts
    expect(regionChildren('999999')).toBeNull()
  })

  it('searches by name', () => {
    expect(searchRegions('西湖').map((r) => r.full_name)).toContain('浙江省杭州市西湖区')
  })
})
