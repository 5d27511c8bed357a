import crypto from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { MapUnavailableError } from './map-provider.ts'
import { offlineMap } from './offline-map.ts'
import { fakeFetch, tencentGeocoder, tencentSuggestion } from './tencent.fixtures.ts'
import { signTencent, tencentMap } from './tencent-map.ts'

describe('Tencent map adapter', () => {
  it('asks the suggestion API with the key and maps places to suggestions', async () => {
    const seen: URL[] = []
    const map = tencentMap({
      key: 'OB4BZ-D4W3U-B7VVO-4PJWW-6TKDJ-WPB77',
      fetch: fakeFetch(tencentSuggestion, seen),
    })
    const items = await map.suggestion('天安门', { region: '北京市' })
    expect(seen[0].origin + seen[0].pathname).toBe('https://apis.map.qq.com/ws/place/v1/suggestion')
    expect(Object.fromEntries(seen[0].searchParams)).toMatchObject({
      keyword: '天安门',
      region: '北京市',
      key: 'OB4BZ-D4W3U-B7VVO-4PJWW-6TKDJ-WPB77',
    })
    expect(seen[0].searchParams.has('sig')).toBe(false)
    expect(items[0]).toEqual({
      title: '天安门',
      address: '北京市东城区东长安街',
      address_code: '110101',
      location: { lat: 39.908802, lon: 116.397502 },
    })
    expect(items).toHaveLength(2)
  })

  it('reverse-geocodes a point to its address and district code', async () => {
    const seen: URL[] = []
    const map = tencentMap({ key: 'k', fetch: fakeFetch(tencentGeocoder, seen) })
    expect(await map.reverse(39.984154, 116.30749)).toEqual({
      address: '北京市海淀区北四环西路66号',
      address_code: '110108',
      lat: 39.984154,
      lon: 116.30749,
    })
    expect(seen[0].pathname).toBe('/ws/geocoder/v1/')
    expect(seen[0].searchParams.get('location')).toBe('39.984154,116.30749')
  })

  it('signs requests when the key needs a signature: md5 of path?sorted-params + SK', async () => {
    const seen: URL[] = []
    const map = tencentMap({ key: 'KEY1', sk: 'SECRET', fetch: fakeFetch(tencentGeocoder, seen) })
    await map.reverse(28.7033487, 115.8660847)
    const expected = crypto
      .createHash('md5')
      .update('/ws/geocoder/v1/?key=KEY1&location=28.7033487,115.8660847SECRET')
      .digest('hex')
    expect(seen[0].searchParams.get('sig')).toBe(expected)
    expect(signTencent('/p', { b: '2', a: '1' }, 'S')).toBe(
      crypto.createHash('md5').update('/p?a=1&b=2S').digest('hex'),
    )
  })

  it('reports a refusal or a network failure as unavailable', async () => {
    const refused = tencentMap({ key: 'bad', fetch: fakeFetch({ status: 311, message: 'key格式错误' }) })
    await expect(refused.suggestion('天安门')).rejects.toThrow(MapUnavailableError)
    await expect(refused.reverse(1, 1)).rejects.toThrow(/311/)
    const down = tencentMap({
      key: 'k',
      fetch: (async () => {
        throw new TypeError('fetch failed')
      }) as typeof fetch,
    })
    await expect(down.suggestion('x')).rejects.toThrow(/did not answer/)
  })
})

describe('offline map', () => {
  it('finds regions by name, with their full names and codes', async () => {
    const items = await offlineMap().suggestion('西湖')
    expect(items).toContainEqual({
      title: '西湖区',
      address: '浙江省杭州市西湖区',
      address_code: '330106',
      location: null,
    })
  })

  it('lists extra sources (device addresses) first', async () => {
    const map = offlineMap({
      sources: [
        async (k) => [
          {
            title: `${k}体育中心AED`,
            address: '福建省厦门市思明区体育路2号',
            address_code: '350203',
            location: { lat: 24.48, lon: 118.1 },
          },
        ],
      ],
    })
    const items = await map.suggestion('思明')
    expect(items[0].title).toBe('思明体育中心AED')
    expect(items.some((i) => i.address_code === '350203' && i.location === null)).toBe(true)
  })

  it('cannot reverse-geocode', async () => {
    await expect(offlineMap().reverse(39.9, 116.4)).rejects.toMatchObject({ offline: true })
  })
})
