import { menuApi } from '@aed/contracts'
import { describe, expect, it } from 'vitest'
import { demo, fileTestApp } from '../../test/harness.ts'
import { buildMenu } from './menu.service.ts'

describe('buildMenu', () => {
  const routes = [
    {
      name: 'sys',
      path: '/sys',
      title: ['系统管理', 'System management'] as [string, string],
      menu: true,
      children: [
        {
          name: 'sys-log',
          path: '/sys/log',
          title: ['日志', 'Log'] as [string, string],
          menu: true,
          permissions: ['agency' as const],
        },
      ],
    },
    { name: 'open', path: '/open', title: ['开放', 'Open'] as [string, string], menu: true },
    { name: 'hidden', path: '/hidden', title: ['隐藏', 'Hidden'] as [string, string] },
  ]

  it('keeps routes whose permission list the member satisfies, in its language', () => {
    const m = buildMenu(['agency'], 'en-US', routes)
    expect(m.map((i) => i.title)).toEqual(['System management', 'Open'])
    expect(m[0].children?.[0].path).toBe('/sys/log')
  })

  it('drops a group whose children are all filtered out, and non-menu routes', () => {
    expect(buildMenu([], 'zh-CN', routes).map((i) => i.name)).toEqual(['open'])
  })
})

describe('GET /api/v1/system/menu', () => {
  const t = fileTestApp()

  it('gives every member the dashboard', async () => {
    for (const phone of [demo.superAdmin, demo.general]) {
      const r = await t.api(menuApi.menu, { token: await t.login(phone) })
      expect(r.code).toBe(0)
      expect(r.data.flatMap((i) => [i.path, ...(i.children ?? []).map((c) => c.path)])).toContain(
        '/watchBoard/dashboard',
      )
    }
  })
})
