import type { MenuItem } from '@aed/contracts'
import { describe, expect, it } from 'vitest'
import { visibleMenu } from './visibleMenu'

const menu: MenuItem[] = [
  { name: 'watchBoard', path: '/watchBoard', title: '监控看板' },
  { name: 'systemManagement', path: '/system', title: '系统管理', children: [] },
  {
    name: 'other',
    path: '/other',
    title: 'Other',
    children: [{ name: 'x', path: '/other/x', title: 'System management' }],
  },
]

describe('visibleMenu', () => {
  it('hides system management unless agency_member_role is 1', () => {
    const names = (items: MenuItem[]) => items.map((i) => i.name)
    expect(names(visibleMenu(menu, 0))).toEqual(['watchBoard', 'other'])
    expect(visibleMenu(menu, 0)[1].children).toEqual([])
    expect(names(visibleMenu(menu, undefined))).toEqual(['watchBoard', 'other'])
    expect(names(visibleMenu(menu, 1))).toEqual(['watchBoard', 'systemManagement', 'other'])
    expect(visibleMenu(menu, 1)[2].children).toHaveLength(1)
  })
})

describe('menuHas', () => {
  it('finds a route name at any depth', async () => {
    const { menuHas } = await import('./menuHas')
    const items = [
      { name: 'a', path: '/a', title: 'A', children: [{ name: 'a-b', path: '/a/b', title: 'B' }] },
    ]
    expect(menuHas(items, 'a-b')).toBe(true)
    expect(menuHas(items, 'c')).toBe(false)
    expect(menuHas(undefined, 'a')).toBe(false)
  })
})
