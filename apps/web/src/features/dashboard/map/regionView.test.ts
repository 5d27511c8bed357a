import { describe, expect, it } from 'vitest'
import { toRegionOptions } from '../../../components/RegionPicker/regionOptions'
import { COUNTRY_VIEW, middleOf, regionCentre, selectorLevels, specZoomFor, zoomFor } from './regionView'

const tree = toRegionOptions([
  {
    code: '110000',
    name: '北京市',
    children: [
      {
        code: '110100',
        name: '市辖区',
        children: [
          { code: '110101', name: '东城区', children: [] },
          { code: '110105', name: '朝阳区', children: [] },
        ],
      },
    ],
  },
  {
    code: '330000',
    name: '浙江省',
    children: [
      { code: '330100', name: '杭州市', children: [{ code: '330106', name: '西湖区', children: [] }] },
      { code: '330200', name: '宁波市', children: [] },
    ],
  },
  { code: '710000', name: '台湾省', children: [] },
  { code: '810000', name: '香港特别行政区', children: [{ code: '810001', name: '中西区', children: [] }] },
])

describe('region selectors', () => {
  it('a province lists its cities, a city its districts', () => {
    const levels = selectorLevels(tree, ['330000', '330100'])
    expect(levels.cities.map((c) => c.label)).toEqual(['杭州市', '宁波市'])
    expect(levels.districts.map((d) => d.label)).toEqual(['西湖区'])
  })

  it("a municipality's second selector lists its districts (its one city-level node is skipped)", () => {
    const levels = selectorLevels(tree, ['110000'])
    expect(levels.cities.map((c) => c.value)).toEqual(['110101', '110105'])
    expect(levels.districts).toEqual([])
  })

  it('Hong Kong lists its districts; Taiwan has none', () => {
    expect(selectorLevels(tree, ['810000']).cities.map((c) => c.label)).toEqual(['中西区'])
    expect(selectorLevels(tree, ['710000']).cities).toEqual([])
  })
})

describe('zoom per level', () => {
  it("is the spec's: country 5, province 8, city 11, district 12, Hong Kong and Macao 14", () => {
    expect([undefined, '330000', '330100', '330106', '110105', '810000', '820001'].map(specZoomFor)).toEqual([
      5, 8, 11, 12, 12, 14, 14,
    ])
  })

  it("one level less on MapLibre's 512-pixel tiles", () => {
    expect(zoomFor('330100')).toBe(10)
    expect(COUNTRY_VIEW.zoom).toBe(4)
  })
})

describe('region centre', () => {
  const places = {
    provinces: new Map([['330000', [120.1, 29.2] as [number, number]]]),
    cities: [{ name: '杭州', at: [120.16, 30.27] as [number, number] }],
  }

  it("a province's label point, a city's point by its short name", () => {
    expect(regionCentre('330000', '浙江省', places, [])).toEqual({ lon: 120.1, lat: 29.2 })
    expect(regionCentre('330100', '杭州市', places, [])).toEqual({ lon: 120.16, lat: 30.27 })
  })

  it('a district: the middle of its devices, none without them', () => {
    const points: [number, number][] = [
      [120.1, 30.2],
      [120.2, 30.3],
      [125, 40],
    ]
    expect(regionCentre('330106', '西湖区', places, points)).toEqual({ lon: 120.2, lat: 30.3 })
    expect(regionCentre('330106', '西湖区', places, [])).toBeNull()
  })

  it('the whole country is the country view', () => {
    expect(regionCentre(undefined, undefined, null, [])).toEqual(COUNTRY_VIEW.center)
    expect(middleOf([])).toBeNull()
  })
})
