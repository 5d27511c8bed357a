import type { RegionNode } from '@aed/contracts/regions'

/** One cascader option of the region picker. */
export type RegionOption = { value: string; label: string; isLeaf: boolean; children?: RegionOption[] }

/** The region tree as cascader options; a node without children is a leaf. */
export function toRegionOptions(nodes: readonly RegionNode[]): RegionOption[] {
  return nodes.map((n) =>
    n.children.length
      ? { value: n.code, label: n.name, isLeaf: false, children: toRegionOptions(n.children) }
      : { value: n.code, label: n.name, isLeaf: true },
  )
}

/** Search: any region of the path whose label contains the input, ignoring case. */
export function matchesRegion(input: string, path: readonly { label?: unknown }[]): boolean {
  const needle = input.trim().toLowerCase()
  return path.some((o) =>
    String(o.label ?? '')
      .toLowerCase()
      .includes(needle),
  )
}

/** The codes from the province down to `code`, or null when the code is unknown. */
export function pathOf(options: readonly RegionOption[], code: string): string[] | null {
  for (const o of options) {
    if (o.value === code) return [o.value]
    const below = o.children ? pathOf(o.children, code) : null
    if (below) return [o.value, ...below]
  }
  return null
}

/** True when the path ends at a region with no regions below it (a district). */
export function endsAtLeaf(options: readonly RegionOption[], path: readonly string[]): boolean {
  let level: readonly RegionOption[] | undefined = options
  let node: RegionOption | undefined
  for (const code of path) {
    node = level?.find((o) => o.value === code)
    if (!node) return false
    level = node.children
  }
  return Boolean(node?.isLeaf)
}
