import type { AgencyNode } from '@aed/contracts/agency'
import { flattenTree } from '@aed/contracts/agency-rules'

/** Every organisation of a tree as a select option (id and name), parents before their children. */
export function agencyOptions(tree: readonly AgencyNode[]): { value: number; label: string }[] {
  return flattenTree(tree).map((n) => ({ value: n.id, label: n.name }))
}
