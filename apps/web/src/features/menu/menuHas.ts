import type { MenuItem } from '@aed/contracts'

/** True when the server menu holds an entry of this route name at any depth. */
export function menuHas(items: readonly MenuItem[] | undefined, name: string): boolean {
  return (items ?? []).some((i) => i.name === name || menuHas(i.children, name))
}
