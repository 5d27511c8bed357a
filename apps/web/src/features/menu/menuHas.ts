import type { MenuItem } from '@aed/contracts'

/** True when the server menu holds an entry of this route name at any depth. */
export function menuHas(items: readonly MenuItem[] | undefined, name: string): boolean {
  return (items ?? []).some((i) => i.name === name || menuHas(i.children, name))
}

/** The menu entries that bring the organisation and the user (manager) filters to other pages (spec 2.1). */
export const ORGANISATION_MENU = 'organizationalManagement-organizational'
export const USERS_MENU = 'users-permission'
