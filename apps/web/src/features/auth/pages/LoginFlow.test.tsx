import { authApi, wechatApi } from '@aed/contracts/auth'
import { menuApi } from '@aed/contracts/menu'
import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { StorageKey, storage } from '../../../lib/storage'
import { membership, userInfo } from '../../../test/fixtures'
import { freshConsole } from '../../../test/freshConsole'
import { headerOf, mockApi, on } from '../../../test/mockApi'
import { renderRoutes } from '../../../test/renderRoutes'

const menu = [{ name: 'watchBoard', path: '/watchBoard', title: '监控看板', icon: 'DashboardOutlined' }]

freshConsole()

async function fillPasswordLogin() {
  const user = userEvent.setup()
  await screen.findByTestId('login-submit')
  await user.type(screen.getByTestId('login-mobile'), '13800000099')
  await user.type(screen.getByTestId('login-password'), 'Aed@123456')
  await user.click(screen.getByTestId('login-privacy'))
  await user.click(screen.getByTestId('login-submit'))
  return user
}

describe('sign-in flow', () => {
  it('asks for an SMS code when the server answers code 7, then sends it with the password', async () => {
    const bodies: unknown[] = []
    mockApi([
      on(authApi.login, ({ body }) => {
        bodies.push(body)
        return bodies.length === 1 ? { code: 7, msg: '请输入验证码' } : { code: 0, data: userInfo() }
      }),
      on(menuApi.menu, () => ({ code: 0, data: menu })),
      on(authApi.memberships, () => ({ code: 0, data: { count: 1, resource: [] } })),
    ])
    const { router } = renderRoutes('/user/login')
    const user = await fillPasswordLogin()
    expect(await screen.findByTestId('login-need-sms')).toBeInTheDocument()
    await user.click(screen.getByTestId('login-submit'))
    expect((await screen.findAllByText('请输入验证码')).length).toBeGreaterThan(0)
    expect(bodies).toHaveLength(1)
    await user.type(screen.getByTestId('login-sms-code'), '123 456')
    await user.click(screen.getByTestId('login-submit'))
    await waitFor(() => expect(router.state.location.pathname).toBe('/watchBoard/dashboard'))
    expect(bodies[1]).toEqual({
      mobile: '13800000099',
      password: 'Aed@123456',
      sms_code: '123456',
      login_way: 1,
      member_type: 3,
    })
    expect(storage.get(StorageKey.token)).toBe('token-1')
  })

  it('shows the organisation picker for several memberships and signs in with the chosen one', async () => {
    const login = userInfo({
      token: 'login-token',
      agency_list: [membership(1, '西湖急救中心', true), membership(2, '南山急救站')],
    })
    const fetchMock = mockApi([
      on(authApi.login, () => ({ code: 0, data: login })),
      on(authApi.switchMembership, () => ({
        code: 0,
        data: userInfo({ id: 2, token: 'member-2-token', agency_name: '南山急救站', password_expired: true }),
      })),
      on(menuApi.menu, () => ({ code: 0, data: menu })),
      on(authApi.memberships, () => ({
        code: 0,
        data: { count: 2, resource: login.agency_list },
      })),
    ])
    const { router } = renderRoutes(`/user/login?redirect=${encodeURIComponent('/watchBoard?from=x')}`)
    const user = await fillPasswordLogin()
    const option = await screen.findByTestId('org-option-2')
    expect(screen.getByTestId('org-option-1')).toHaveTextContent('西湖急救中心')
    expect(storage.get(StorageKey.token)).toBeNull()
    await user.click(option)
    await waitFor(() => expect(router.state.location.pathname).toBe('/watchBoard'))
    expect(router.state.location.search).toBe('?from=x')
    const pick = fetchMock.mock.calls.find(
      ([, init]) => init?.method === 'POST' && init.body === '{"member_id":2}',
    )
    expect(headerOf(pick?.[1], 'Authorization')).toBe('JWT login-token')
    expect(storage.get(StorageKey.token)).toBe('member-2-token')
    const prompt = await screen.findByTestId('password-expiry')
    expect(within(prompt).getByText('点击修改')).toBeInTheDocument()
    await user.click(within(prompt).getByTestId('expiry-ignore'))
    expect(storage.get(StorageKey.passwordPrompt)).toBeNull()
  })

  it('says plainly when WeChat sign-in is not configured', async () => {
    mockApi([
      on(wechatApi.config, () => ({
        code: 0,
        data: { enabled: false, appid: null, redirect_uri: null, state: null },
      })),
    ])
    renderRoutes('/user/login')
    await userEvent.setup().click(await screen.findByTestId('login-wechat'))
    expect(await screen.findByText('未配置微信登录，请使用手机号登录')).toBeInTheDocument()
    expect(document.querySelector('iframe')).toBeNull()
  })

  it('shows the WeChat QR frame when configured and signs in on return', async () => {
    const fetchMock = mockApi([
      on(wechatApi.config, () => ({
        code: 0,
        data: { enabled: true, appid: 'wx1', redirect_uri: 'https://aed.example/user/login', state: 'st' },
      })),
      on(wechatApi.login, () => ({ code: 0, data: userInfo({ token: 'wx-token' }) })),
      on(menuApi.menu, () => ({ code: 0, data: menu })),
      on(authApi.memberships, () => ({ code: 0, data: { count: 1, resource: [] } })),
    ])
    const first = renderRoutes('/user/login')
    await userEvent.setup().click(await screen.findByTestId('login-wechat'))
    const frame = await screen.findByTitle('微信登录二维码')
    expect(frame.getAttribute('src')).toContain('appid=wx1')
    expect(frame.getAttribute('src')).toContain('state=st')
    expect(String(fetchMock.mock.calls[0][0])).toContain('purpose=login')
    first.unmount()

    const { router } = renderRoutes('/user/login?code=C1&state=st')
    await waitFor(() => expect(router.state.location.pathname).toBe('/watchBoard/dashboard'))
    const call = fetchMock.mock.calls.find(([url]) => String(url).includes('/wechat/login'))
    expect(call?.[1]?.body).toBe('{"code":"C1","state":"st"}')
    expect(storage.get(StorageKey.token)).toBe('wx-token')
  })
})
