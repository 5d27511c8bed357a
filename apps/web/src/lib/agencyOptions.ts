import type { AgencyNode } from '@aed/contracts/agency'
import { flattenTree } from '@aed/contracts/agency-rules'

/** Every organisation of a tree as a select option (id and name), parents before their children. */
export function agencyOptions(tree: readonly AgencyNode[]): { value: number; label: string }[] {
  return flattenTree(tree).map((n) => ({ value: n.id, label: n.name }))
}

export type AgencyTreeOption = { value: number; title: string; children: AgencyTreeOption[] }

/** The organisation tree as TreeSelect options. */
export const agencyTreeOptions = (nodes: readonly AgencyNode[]): AgencyTreeOption[] =>
  nodes.map((n) => ({ value: n.id, title: n.name, children: agencyTreeOptions(n.kids) }))
