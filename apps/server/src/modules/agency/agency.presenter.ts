import { can, maskPhone } from '@aed/contracts'
import type { Agency, AgencyNode } from '@aed/contracts/agency'
import { regionFullName } from '@aed/contracts/regions'
import type { AuthContext } from '../../plugins/auth.ts'
import type { AgencyListRow } from './agency.repository.ts'

/** One organisation as anyone allowed to see it sees it: the part a push to many members can share. */
export function agencyObject(row: AgencyListRow, opts: { masked: boolean }): Omit<Agency, 'can'> {
  return {
    id: Number(row.id),
    name: row.name,
    agency_type: row.agency_type as Agency['agency_type'],
    parent_id: row.parent_id === null ? null : Number(row.parent_id),
    parent_name: row.parent_name,
    level: row.level,
    phone: opts.masked ? maskPhone(row.phone) : row.phone,
    contact_name: row.contact_name,
    location: row.location,
    address_code: row.address_code,
    address_name: row.address_code ? regionFullName(row.address_code) : null,
    index_link: row.index_link,
    disabled: row.disabled,
    effective_disabled: row.effective_disabled,
    create_time: row.create_time.toISOString(),
  }
}

/** What the signed-in member may do with this organisation (its own cannot be disabled). */
export function agencyCan(row: Pick<AgencyListRow, 'id'>, auth: AuthContext): Agency['can'] {
  const editable = can(auth, 'agency', 'EDIT')
  return { edit: editable, disable: editable && Number(row.id) !== auth.agency_id }
}

/** What the signed-in member may do from the organisation page: add, as the create route's guard (agency EDIT). */
export function agencyListCan(auth: AuthContext) {
  return { create: can(auth, 'agency', 'EDIT') }
}

/** One organisation as the console shows it to `auth`; lists mask the phone, the detail does not. */
export function presentAgency(row: AgencyListRow, auth: AuthContext, opts: { masked: boolean }): Agency {
  return { ...agencyObject(row, opts), can: agencyCan(row, auth) }
}

/** Builds the tree from rows ordered parents first; the scope's root is the single top node. */
export function buildTree(
  rows: {
    id: number
    name: string
    index_link: string
    agency_type: number
    level: number
    parent_id: number | null
    disabled: boolean
  }[],
): AgencyNode[] {
  const nodes = new Map<number, AgencyNode>()
  const roots: AgencyNode[] = []
  for (const r of rows) {
    const node: AgencyNode = {
      id: r.id,
      name: r.name,
      index_link: r.index_link,
      agency_type: r.agency_type,
      level: r.level,
      disabled: r.disabled,
      kids: [],
    }
    nodes.set(r.id, node)
    const parent = r.parent_id === null ? undefined : nodes.get(r.parent_id)
    if (parent) parent.kids.push(node)
    else roots.push(node)
  }
  return roots
}
