import { Code } from '@aed/contracts'
import { mapApi } from '@aed/contracts/map'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { MapProvider } from '../../providers/map/map-provider.ts'
import { fakeFetch, tencentGeocoder, tencentSuggestion } from '../../providers/map/tencent.fixtures.ts'
import { tencentMap } from '../../providers/map/tencent-map.ts'
import { createTestApp, demo, type TestApp } from '../../test/harness.ts'

let t: TestApp
const tokens: Record<string, string> = {}
beforeAll(async () => {
  t = await createTestApp()
  for (const k of ['general', 'njAdmin'] as const) tokens[k] = await t.login(demo[k])
})
afterAll(() => t.close())

const children = (id?: string, token = tokens.njAdmin) =>
  t.api(mapApi.districtChildren, {
    token,
    query: id === undefined ? {} : { id },
  })

describe('district tree', () => {
  it('answers the provinces without an id, then each level’s children', async () => {
    const provinces = await children()
    expect(provinces.data).toHaveLength(34)
    expect(provinces.data[0]).toEqual({ value: '110000', label: '北京市', is_leaf: false })
    expect((await children('110000')).data).toEqual([{ value: '110100', label: '北京市', is_leaf: false }])
    const hz = await children('330100')
    expect(hz.data).toContainEqual({ value: '330106', label: '西湖区', is_leaf: true })
    expect((await children('710000')).data).toEqual([])
    expect((await children('')).data).toHaveLength(34)
  })

  it('refuses an unknown code with a clear message', async () => {
    for (const id of ['999999', 'abc', '3301']) {
      expect(await children(id)).toMatchObject({ code: 1, msg: '未知的行政区划代码' })
    }
    const en = await t.api(mapApi.districtChildren, {
      token: tokens.njAdmin,
      query: { id: '999999' },
      lang: 'en-US',
    })
    expect(en.msg).toBe('Unknown region code')
  })

  it('serves every signed-in member, read-only ones too, and nobody else', async () => {
    expect((await children('320100', tokens.general)).code).toBe(0)
    expect((await t.api(mapApi.districtChildren)).code).toBe(Code.TOKEN)
  })
})

describe('offline place search and reverse geocoding', () => {
  it('finds regions by keyword', async () => {
    const r = await t.api(mapApi.suggestion, {
      token: tokens.general,
      query: { keyword: '鼓楼' },
    })
    expect(r.data).toContainEqual({
      title: '鼓楼区',
      address: '江苏省南京市鼓楼区',
      address_code: '320106',
      location: null,
    })
  })

  it('needs a keyword and a token', async () => {
    const r = await t.api(mapApi.suggestion, { token: tokens.njAdmin, query: { keyword: ' ' } })
    expect(r).toMatchObject({ code: 1, msg: '请输入搜索关键词' })
    // No keyword at all, which the query type requires: a raw call.
    expect((await t.call('GET', mapApi.suggestion.path, { token: tokens.njAdmin })).msg).toBe(
      '请输入搜索关键词',
    )
    expect((await t.api(mapApi.suggestion, { query: { keyword: '鼓楼' } })).code).toBe(Code.TOKEN)
  })

  it('says plainly that the offline map cannot turn coordinates into an address', async () => {
    const r = await t.api(mapApi.address, {
      token: tokens.njAdmin,
      query: { lat: 32.06, lon: 118.78 },
    })
    expect(r).toMatchObject({
      code: Code.PROVIDER_UNAVAILABLE,
      msg: '离线地图无法根据经纬度解析地址，请手动选择所在地区',
    })
  })

  it('checks the coordinates first', async () => {
    const queries: { lat: number | string; lon: number }[] = [
      { lat: 91, lon: 118 },
      { lat: 32, lon: 181 },
      { lat: 'x', lon: 1 },
      { lat: '', lon: 1 },
    ]
    for (const query of queries) {
      const r = await t.api(mapApi.address, { token: tokens.njAdmin, query })
      expect(r, JSON.stringify(query)).toMatchObject({ code: 1, msg: '经纬度不正确' })
    }
    // No lat at all, which the query type requires: a raw call.
    const noLat = await t.call('GET', mapApi.address.path, { token: tokens.njAdmin, query: { lon: 1 } })
    expect(noLat).toMatchObject({ code: 1, msg: '经纬度不正确' })
  })
})

describe('through the Tencent adapter', () => {
  let saved: MapProvider
  beforeAll(() => {
    saved = t.ctx.map
  })
  afterAll(() => {
    t.ctx.map = saved
  })

  it('answers suggestions and addresses from Tencent', async () => {
    t.ctx.map = tencentMap({ key: 'k', fetch: fakeFetch(tencentSuggestion) })
    const s = await t.api(mapApi.suggestion, {
      token: tokens.njAdmin,
      query: { keyword: '天安门' },
    })
    expect(s.data[0]).toEqual({
      title: '天安门',
      address: '北京市东城区东长安街',
      address_code: '110101',
      location: { lat: 39.908802, lon: 116.397502 },
    })
    t.ctx.map = tencentMap({ key: 'k', fetch: fakeFetch(tencentGeocoder) })
    const a = await t.api(mapApi.address, {
      token: tokens.njAdmin,
      query: { lat: 39.984154, lon: 116.30749 },
    })
    expect(a.data).toEqual({
      address: '北京市海淀区北四环西路66号',
      address_code: '110108',
      lat: 39.984154,
      lon: 116.30749,
    })
  })

  it('answers code 6 when Tencent refuses', async () => {
    t.ctx.map = tencentMap({
      key: 'k',
      fetch: fakeFetch({ status: 121, message: '此key每日调用量已达到上限' }),
    })
    const r = await t.api(mapApi.suggestion, {
      token: tokens.njAdmin,
      query: { keyword: '天安门' },
    })
    expect(r).toMatchObject({ code: Code.PROVIDER_UNAVAILABLE, msg: '地图服务暂时不可用，请稍后重试' })
  })

  it('is what MAP_PROVIDER=tencent wires up', async () => {
    const other = await createTestApp({ env: { MAP_PROVIDER: 'tencent', TENCENT_MAP_KEY: 'k' } })
    try {
      expect(other.ctx.map.name).toBe('tencent')
      expect(saved.name).toBe('offline')
    } finally {
      await other.close()
    }
  })
})
