import { flattenRoutes, type MenuItem } from '@aed/contracts'
import { Menu, type MenuProps } from 'antd'
import { useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation } from 'react-router'
import { useMenu } from '../../features/menu/api/useMenu'
import { visibleMenu } from '../../features/menu/visibleMenu'
import { useSession } from '../../lib/useSession'
import { menuIcon } from './menuIcons'

type Items = NonNullable<MenuProps['items']>

/** Titles of the shared route tree, so the menu follows a language switch without a refetch. */
const TITLES = new Map(flattenRoutes().map((r) => [r.name, r.title]))
type Props = { mode: 'horizontal' | 'inline'; theme: 'light' | 'dark'; collapsed?: boolean }

function ancestors(items: readonly MenuItem[], path: string, trail: string[] = []): string[] {
  for (const item of items) {
    if (item.path === path) return trail
    const found = ancestors(item.children ?? [], path, [...trail, item.path])
    if (found.length) return found
  }
  return []
}

/** The server-built menu, in the header (top menu) or the sider (side menu). */
export function NavMenu({ mode, theme, collapsed }: Props) {
  const { i18n } = useTranslation()
  const { pathname } = useLocation()
  const { token, userInfo } = useSession()
  const menu = useMenu(token)
  const shown = useMemo(
    () => visibleMenu(menu.data ?? [], userInfo?.agency_member_role),
    [menu.data, userInfo],
  )

  const items = useMemo(() => {
    const build = (list: readonly MenuItem[]): Items =>
      list.map((item) => {
        const label = TITLES.get(item.name)?.[i18n.language === 'en-US' ? 1 : 0] ?? item.title
        const icon = menuIcon(item.icon)
        if (item.children?.length) return { key: item.path, icon, label, children: build(item.children) }
        return {
          key: item.path,
          icon,
          label: (
            <Link to={item.path} data-testid={`menu-${item.name}`}>
              {label}
            </Link>
          ),
        }
      })
    return build(shown)
  }, [shown, i18n.language])

  const trail = ancestors(shown, pathname)
  const trailKey = trail.join('\n')
  const [openKeys, setOpenKeys] = useState<string[]>([])
  useEffect(() => {
    if (trailKey) setOpenKeys((keys) => [...new Set([...keys, ...trailKey.split('\n')])])
  }, [trailKey])
  const inline = mode === 'inline' && !collapsed

  return (
    <Menu
      mode={mode}
      theme={theme}
      items={items}
      selectedKeys={[pathname, ...trail]}
      {...(inline ? { openKeys, onOpenChange: setOpenKeys } : {})}
      className={`nav-menu nav-menu-${mode}`}
      data-testid="nav-menu"
    />
  )
}
