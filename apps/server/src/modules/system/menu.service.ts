import { type Lang, type MenuItem, type RouteDef, routeAllowed, routeTree } from '@aed/contracts'

/** The sidebar of a member: menu routes whose permission list it satisfies, children filtered too. */
export function buildMenu(held: readonly string[], lang: Lang, routes: RouteDef[] = routeTree): MenuItem[] {
  return routes.flatMap((r): MenuItem[] => {
    if (!r.menu || !routeAllowed(r.permissions, held)) return []
    const children = r.children ? buildMenu(held, lang, r.children) : undefined
    // A group whose every child was filtered out is of no use in the menu.
    if (r.children?.length && !children?.length) return []
    return [
      {
        name: r.name,
        path: r.path,
        title: r.title[lang === 'en-US' ? 1 : 0],
        ...(r.icon ? { icon: r.icon } : {}),
        ...(children?.length ? { children } : {}),
      },
    ]
  })
}
