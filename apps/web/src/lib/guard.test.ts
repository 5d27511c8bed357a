import type { RouteDef } from '@aed/contracts'
import { describe, expect, it } from 'vitest'
import { guard, routeFor } from './guard'

const routes: RouteDef[] = [
  {
    name: 'watchBoard',
    path: '/watchBoard',
    title: ['监控看板', 'Watch board'],
    children: [
      { name: 'watchBoard-dashboard', path: '/watchBoard/dashboard', title: ['数据看板', 'Dashboard'] },
    ],
  },
  { name: 'users', path: '/users/list', title: ['用户列表', 'Users'], permissions: ['member'] },
]

describe('route guard', () => {
  it('lets a visitor without a token open the login page', () => {
    expect(guard({ pathname: '/user/login', search: '', token: null, permissions: [], routes })).toEqual({
      type: 'allow',
    })
  })

  it('sends a visitor without a token to login with the full original path', () => {
    const decision = guard({
      pathname: '/watchBoard/dashboard',
      search: '?formMsg=1&event_id=7',
      token: null,
      permissions: [],
      routes,
    })
    expect(decision).toEqual({
      type: 'redirect',
      to: `/user/login?redirect=${encodeURIComponent('/watchBoard/dashboard?formMsg=1&event_id=7')}`,
    })
  })

  it('also protects error pages and unknown paths when signed out', () => {
    for (const pathname of ['/exception/403', '/nowhere', '/']) {
      const d = guard({ pathname, search: '', token: null, permissions: [], routes })
      expect(d).toEqual({ type: 'redirect', to: `/user/login?redirect=${encodeURIComponent(pathname)}` })
    }
  })

  it('sends a signed-in member away from the login page to the dashboard', () => {
    expect(guard({ pathname: '/user/login', search: '', token: 't', permissions: [], routes })).toEqual({
      type: 'redirect',
      to: '/watchBoard/dashboard',
    })
  })

  it('sends a signed-in member on the login page to a safe redirect query', () => {
    const to = (search: string) =>
      guard({ pathname: '/user/login', search, token: 't', permissions: [], routes })
    expect(to(`?redirect=${encodeURIComponent('/users/list?page=2')}`)).toEqual({
      type: 'redirect',
      to: '/users/list?page=2',
    })
    expect(to('?redirect=https%3A%2F%2Fevil.example')).toEqual({
      type: 'redirect',
      to: '/watchBoard/dashboard',
    })
  })

  it('carries a WeChat return code and state to the dashboard for the bind flow', () => {
    const d = guard({
      pathname: '/user/login',
      search: '?code=C1&state=S1',
      token: 't',
      permissions: [],
      routes,
    })
    expect(d).toEqual({ type: 'redirect', to: '/watchBoard/dashboard?code=C1&state=S1' })
  })

  it('sends a member lacking the route permission to 403', () => {
    expect(
      guard({ pathname: '/users/list', search: '', token: 't', permissions: ['device'], routes }),
    ).toEqual({
      type: 'redirect',
      to: '/exception/403',
    })
  })

  it('allows a member holding one of the route permissions, and open routes', () => {
    expect(
      guard({ pathname: '/users/list/', search: '', token: 't', permissions: ['member'], routes }),
    ).toEqual({
      type: 'allow',
    })
    expect(
      guard({ pathname: '/watchBoard/dashboard', search: '', token: 't', permissions: [], routes }),
    ).toEqual({
      type: 'allow',
    })
    expect(guard({ pathname: '/exception/404', search: '', token: 't', permissions: [], routes })).toEqual({
      type: 'allow',
    })
  })

  it('finds nested route definitions', () => {
    expect(routeFor('/watchBoard/dashboard', routes)?.name).toBe('watchBoard-dashboard')
    expect(routeFor('/missing', routes)).toBeUndefined()
  })
})
