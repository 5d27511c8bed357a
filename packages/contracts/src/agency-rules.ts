// The organisation dialog's rules, one copy for the console and the server.
import type { AgencyNode } from './agency.ts'
import { AgencyType } from './permissions.ts'

/** Every node of the tree, parents before children. */
export function flattenTree(nodes: readonly AgencyNode[]): AgencyNode[] {
  return nodes.flatMap((n) => [n, ...flattenTree(n.kids)])
}

export function findNode(
  nodes: readonly AgencyNode[],
  id: number | null | undefined,
): AgencyNode | undefined {
  return id == null ? undefined : flattenTree(nodes).find((n) => n.id === id)
}

/** Which parent types each organisation type may sit under (system organisations sit under none). */
export const PARENT_TYPES: Readonly<Record<number, readonly number[]>> = {
  [AgencyType.GENERAL_AGENT]: [AgencyType.SYSTEM],
  [AgencyType.ORDINARY]: [AgencyType.SYSTEM, AgencyType.GENERAL_AGENT],
}

/**
 * Type options of the organisation dialog: system only when editing; general agent for members of
 * the system organisation or when editing; ordinary always.
 */
export function agencyTypeOptions(editing: boolean, actorAgencyType: number): number[] {
  return [
    ...(editing ? [AgencyType.SYSTEM] : []),
    ...(editing || actorAgencyType === AgencyType.SYSTEM ? [AgencyType.GENERAL_AGENT] : []),
    AgencyType.ORDINARY,
  ]
}

/** Parent options: a general agent's member gets its own organisation; the system's members the general agents. */
export function parentOptions(
  tree: readonly AgencyNode[],
  actor: { agency_type: number; agency_id: number },
) {
  const all = flattenTree(tree)
  if (actor.agency_type === AgencyType.GENERAL_AGENT) return all.filter((n) => n.id === actor.agency_id)
  if (actor.agency_type === AgencyType.SYSTEM)
    return all.filter((n) => n.agency_type === AgencyType.GENERAL_AGENT)
  return []
}

/**
 * The level a new or moved organisation gets: its parent's plus one. Without a parent it goes
 * under the member's own organisation; with nothing known it is a first-level organisation.
 */
export function levelUnder(parentLevel: number | undefined, ownLevel: number | undefined): number {
  if (parentLevel !== undefined) return parentLevel + 1
  return ownLevel !== undefined ? ownLevel + 1 : 1
}

/** Tree keys (index links) of every node that has children. */
export function expandableKeys(nodes: readonly AgencyNode[]): string[] {
  return flattenTree(nodes)
    .filter((n) => n.kids.length > 0)
    .map((n) => n.index_link)
}
