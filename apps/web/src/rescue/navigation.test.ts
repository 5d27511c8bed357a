import { describe, expect, it } from 'vitest'
import { appsFor, navigationUrl } from './navigation'

const aed = { lat: 30.276123456, lon: 120.157123456, name: 'AED 西湖文化广场 B1' }

describe('navigation', () => {
  it('asks AMap for walking directions in its own datum (GCJ-02), lon before lat', () => {
    const url = new URL(navigationUrl('amap', aed))
    expect(url.origin + url.pathname).toBe('https://uri.amap.com/navigation')
    expect(url.searchParams.get('to')).toBe('120.157123,30.276123,AED 西湖文化广场 B1')
    expect(url.searchParams.get('mode')).toBe('walk')
    expect(url.searchParams.get('coordinate')).toBe('gaode')
    expect(url.searchParams.get('callnative')).toBe('1')
    expect(url.searchParams.has('from')).toBe(false)
  })

  it('asks Tencent Maps for a walking route, lat before lon, from the current position', () => {
    const url = new URL(navigationUrl('tencent', aed))
    expect(url.origin + url.pathname).toBe('https://apis.map.qq.com/uri/v1/routeplan')
    expect(url.searchParams.get('type')).toBe('walk')
    expect(url.searchParams.get('tocoord')).toBe('30.276123,120.157123')
    expect(url.searchParams.get('to')).toBe(aed.name)
    expect(url.searchParams.get('referer')).toBeTruthy()
    expect(url.searchParams.has('fromcoord')).toBe(false)
  })

  it('asks Apple Maps for walking directions to the point', () => {
    const url = new URL(navigationUrl('apple', aed))
    expect(url.host).toBe('maps.apple.com')
    expect(url.searchParams.get('daddr')).toBe('30.276123,120.157123')
    expect(url.searchParams.get('dirflg')).toBe('w')
  })

  it('offers Apple Maps first on an iPhone, AMap first elsewhere', () => {
    const iphone = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148'
    expect(appsFor(iphone)[0]).toBe('apple')
    expect(appsFor('Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/126.0 Mobile')).toEqual([
      'amap',
      'tencent',
      'apple',
    ])
  })
})
