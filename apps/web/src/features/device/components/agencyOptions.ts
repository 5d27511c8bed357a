import type { AgencyNode } from '@aed/contracts/agency'

export type AgencyTreeOption = { value: number; title: string; children: AgencyTreeOption[] }

/** The organisation tree as TreeSelect options. */
export const agencyTreeOptions = (nodes: readonly AgencyNode[]): AgencyTreeOption[] =>
  nodes.map((n) => ({ value: n.id, title: n.name, children: agencyTreeOptions(n.kids) }))
