import { AgencyType } from '@aed/contracts'
import type { AgencyForm, AgencyListQuery } from '@aed/contracts/agency'
import { agencyTypeOptions, PARENT_TYPES } from '@aed/contracts/agency-rules'
import { isLeafRegion } from '@aed/contracts/regions'
import type { AppContext } from '../../context.ts'
import { invalid, notFound } from '../../lib/errors.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { endLiveSessions } from '../live/live.service.ts'
import { agencyListCan, buildTree, presentAgency } from './agency.presenter.ts'
import * as repo from './agency.repository.ts'

function checkAddress(form: AgencyForm) {
  if (!isLeafRegion(form.address_code)) throw invalid('ADDRESS_TO_DISTRICT')
}

async function resolveParent(ctx: AppContext, auth: AuthContext, parentId: number | null | undefined) {
  // No parent chosen: directly under the acting member's own organisation.
  const parent = await repo.findInScope(ctx.db, auth, parentId ?? auth.agency_id)
  if (!parent) throw invalid('AGENCY_PARENT_INVALID')
  return parent
}

function checkTypeUnderParent(type: number, parentType: number) {
  if (!PARENT_TYPES[type]?.includes(parentType)) throw invalid('AGENCY_PARENT_INVALID')
}

/** Creates an organisation in the member's subtree: general agents only by system members, never a system one. */
export async function createAgency(ctx: AppContext, auth: AuthContext, form: AgencyForm) {
  // The dialog's type options for a new organisation are the rule: never system, general agents
  // only by members of the system organisation.
  if (!agencyTypeOptions(false, auth.agency_type).includes(form.agency_type))
    throw invalid('AGENCY_TYPE_NOT_ALLOWED')
  checkAddress(form)
  const parent = await resolveParent(ctx, auth, form.parent_id)
  checkTypeUnderParent(form.agency_type, parent.agency_type)
  if (await repo.siblingNamed(ctx.db, parent.id, form.name)) throw invalid('AGENCY_NAME_TAKEN')
  const row = await repo.insertAgency(ctx.db, {
    name: form.name,
    agency_type: form.agency_type,
    parent_id: parent.id,
    contact_name: form.contact_name,
    phone: form.phone,
    location: form.location ?? null,
    address_code: form.address_code,
    creator: auth.member_id,
  })
  return presentAgency(await repo.decorate(ctx.db, row), auth, { masked: false })
}

/** Changes an organisation; a new parent moves its whole subtree. Its own organisation keeps type and place. */
export async function updateAgency(ctx: AppContext, auth: AuthContext, id: number, form: AgencyForm) {
  const row = await repo.findInScope(ctx.db, auth, id)
  if (!row) throw notFound()
  checkAddress(form)
  const own = row.id === auth.agency_id
  if (row.agency_type === AgencyType.SYSTEM && form.agency_type !== AgencyType.SYSTEM)
    throw invalid('AGENCY_SYSTEM_TYPE')
  if (row.agency_type !== AgencyType.SYSTEM && form.agency_type === AgencyType.SYSTEM) {
    throw invalid('AGENCY_TYPE_NOT_ALLOWED')
  }
  const typeChanged = form.agency_type !== row.agency_type
  const parentChanged =
    form.parent_id !== undefined && form.parent_id !== null && form.parent_id !== row.parent_id
  if (own && (typeChanged || parentChanged)) throw invalid('AGENCY_OWN')
  if (typeChanged && form.agency_type === AgencyType.ORDINARY && (await repo.hasChildren(ctx.db, row.id))) {
    throw invalid('AGENCY_HAS_CHILDREN')
  }

  return ctx.db.transaction(async (tx) => {
    if (row.parent_id !== null && (typeChanged || parentChanged)) {
      const parent = await repo.findInScope(tx, auth, parentChanged ? form.parent_id! : row.parent_id)
      if (!parent) throw invalid('AGENCY_PARENT_INVALID')
      if (parent.index_link.startsWith(row.index_link)) throw invalid('AGENCY_MOVE_INTO_ITSELF')
      checkTypeUnderParent(form.agency_type, parent.agency_type)
      if (parentChanged) await repo.moveSubtree(tx, row, parent)
    }
    if (await repo.siblingNamed(tx, parentChanged ? form.parent_id! : row.parent_id, form.name, row.id)) {
      throw invalid('AGENCY_NAME_TAKEN')
    }
    await repo.update(tx, row.id, {
      name: form.name,
      agency_type: form.agency_type,
      contact_name: form.contact_name,
      phone: form.phone,
      location: form.location ?? null,
      address_code: form.address_code,
    })
    const fresh = (await repo.findById(tx, row.id))!
    return presentAgency(await repo.decorate(tx, fresh), auth, { masked: false })
  })
}

/**
 * Disables or enables an organisation. Disabling takes every function from it and from every
 * organisation below it at once: the session check refuses any member under a disabled path,
 * and their open live sockets are closed (4009).
 */
export async function setAgencyDisabled(ctx: AppContext, auth: AuthContext, id: number, disabled: boolean) {
  const row = await repo.findInScope(ctx.db, auth, id)
  if (!row) throw notFound()
  if (row.id === auth.agency_id) throw invalid('AGENCY_OWN')
  await repo.update(ctx.db, row.id, { disabled })
  if (disabled) await endLiveSessions(ctx, { reason: 'agency_disabled', index_link: row.index_link })
  return { id: row.id, name: row.name, disabled }
}

/** The organisation tree of the member's subtree. */
export async function agencyTree(ctx: AppContext, auth: AuthContext) {
  return { resource: buildTree(await repo.listScope(ctx.db, auth)) }
}

/** One page of the subtree's organisations, phones masked. */
export async function listAgencies(ctx: AppContext, auth: AuthContext, query: AgencyListQuery) {
  const { count, rows } = await repo.listPage(ctx.db, auth, query)
  const resource = rows.map((r) => presentAgency(r, auth, { masked: true }))
  return { count, resource, can: agencyListCan(auth) }
}

/**
 * The organisation `id` (the member's own when none is given), only inside the member's subtree:
 * what other features call to check an organisation a request names.
 */
export async function agencyInScope(ctx: AppContext, auth: AuthContext, id: number | null | undefined) {
  return repo.findInScope(ctx.db, auth, id ?? auth.agency_id)
}

export async function agencyDetail(ctx: AppContext, auth: AuthContext, id: number) {
  const row = await repo.findInScope(ctx.db, auth, id)
  if (!row) throw notFound()
  return presentAgency(await repo.decorate(ctx.db, row), auth, { masked: false })
}
