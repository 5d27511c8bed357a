import type { Point } from './geo'

/** A place to walk to: GCJ-02, as the map apps of China take it. */
export type Target = Point & { name: string }

/** The map apps the 导航 button offers, in the order shown. */
export const NAV_APPS = ['amap', 'tencent', 'apple'] as const
export type NavApp = (typeof NAV_APPS)[number]

const SOURCE = 'aed-cloud'
const coord = (n: number) => n.toFixed(6)

/**
 * Walking directions to `to` in a map app, from the phone's own position (the apps locate it).
 * All three take GCJ-02: AMap's URI API with coordinate=gaode, Tencent's URI API (its default
 * coord_type 2), and Apple Maps, whose map of China is GCJ-02.
 */
export function navigationUrl(app: NavApp, to: Target): string {
  const name = encodeURIComponent(to.name)
  switch (app) {
    case 'amap':
      // https://lbs.amap.com/api/uri-api/guide/travel/route; callnative=1 opens the app when installed.
      return `https://uri.amap.com/navigation?to=${coord(to.lon)},${coord(to.lat)},${name}&mode=walk&coordinate=gaode&callnative=1&src=${SOURCE}`
    case 'tencent':
      // https://lbs.qq.com/webApi/uriV1/uriGuide/uriMobileRoute: from left out means "my position".
      return `https://apis.map.qq.com/uri/v1/routeplan?type=walk&to=${name}&tocoord=${coord(to.lat)},${coord(to.lon)}&referer=${SOURCE}`
    case 'apple':
      // Apple Map Links: daddr the destination, dirflg=w walking, the start the current location.
      return `https://maps.apple.com/?daddr=${coord(to.lat)},${coord(to.lon)}&dirflg=w`
  }
}

/** Apple Maps first on iPhones and iPads, where it is always there; AMap first elsewhere. */
export function appsFor(userAgent: string): NavApp[] {
  return /iPhone|iPad|iPod/.test(userAgent) ? ['apple', 'amap', 'tencent'] : [...NAV_APPS]
}
