import crypto from 'node:crypto'
import type { MapAddress, MapSuggestion } from '@aed/contracts/map'
import { type MapProvider, MapUnavailableError } from './map-provider.ts'

type Options = {
  key: string
  /** Secret of the key's signature check (SK), when the key is set up to require one. */
  sk?: string
  base?: string
  fetch?: typeof fetch
}

type TencentLatLng = { lat: number; lng: number }
type TencentAnswer<T> = { status: number; message: string } & T
type SuggestionItem = {
  title: string
  address?: string
  adcode?: number | string
  location?: TencentLatLng
  province?: string
  city?: string
  district?: string
}
type GeocoderResult = {
  location: TencentLatLng
  address: string
  ad_info?: { adcode?: number | string }
}

/** A region code from Tencent's adcode (a number in suggestions, a string in the geocoder). */
const adcodeOf = (v: number | string | undefined) => {
  const s = v === undefined ? '' : String(v)
  return /^\d{6}$/.test(s) ? s : null
}

/** Tencent's request signature: md5 of path, '?', the parameters sorted by name (raw values), and the SK. */
export function signTencent(path: string, params: Record<string, string>, sk: string) {
  const query = Object.keys(params)
    .sort()
    .map((k) => `${k}=${params[k]}`)
    .join('&')
  return crypto.createHash('md5').update(`${path}?${query}${sk}`).digest('hex')
}

/** Tencent Location Service WebService API: place suggestion and reverse geocoding. */
export function tencentMap(o: Options): MapProvider {
  const doFetch = o.fetch ?? fetch
  const base = o.base ?? 'https://apis.map.qq.com'

  async function call<T>(path: string, params: Record<string, string>): Promise<TencentAnswer<T>> {
    const all = { ...params, key: o.key }
    const url = new URL(path, base)
    url.search = new URLSearchParams(o.sk ? { ...all, sig: signTencent(path, all, o.sk) } : all).toString()
    let body: TencentAnswer<T>
    try {
      const res = await doFetch(url, { signal: AbortSignal.timeout(10_000) })
      body = (await res.json()) as TencentAnswer<T>
    } catch (e) {
      throw new MapUnavailableError(`Tencent map did not answer: ${(e as Error).message}`)
    }
    if (body.status !== 0)
      throw new MapUnavailableError(`Tencent map refused: ${body.status} ${body.message}`)
    return body
  }

  return {
    name: 'tencent',
    async suggestion(keyword, opts = {}) {
      const params: Record<string, string> = {
        keyword,
        page_size: String(Math.min(opts.limit ?? 10, 20)),
      }
      if (opts.region) params.region = opts.region
      const body = await call<{ data?: SuggestionItem[] }>('/ws/place/v1/suggestion', params)
      return (body.data ?? []).map(
        (d): MapSuggestion => ({
          title: d.title,
          address: d.address ?? `${d.province ?? ''}${d.city ?? ''}${d.district ?? ''}`,
          address_code: adcodeOf(d.adcode),
          location: d.location ? { lat: d.location.lat, lon: d.location.lng } : null,
        }),
      )
    },
    async reverse(lat, lon): Promise<MapAddress> {
      const body = await call<{ result?: GeocoderResult }>('/ws/geocoder/v1/', { location: `${lat},${lon}` })
      if (!body.result) throw new MapUnavailableError('Tencent map answered no result')
      return {
        address: body.result.address,
        address_code: adcodeOf(body.result.ad_info?.adcode),
        lat,
        lon,
      }
    },
  }
}
