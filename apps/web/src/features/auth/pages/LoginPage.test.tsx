import { screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '../../../i18n'
import { storage } from '../../../lib/storage'
import { renderRoutes } from '../../../test/renderRoutes'

const fetchMock = vi.fn<typeof fetch>()

beforeEach(async () => {
  storage.clear()
  await i18n.changeLanguage('zh-CN')
  vi.stubGlobal('fetch', fetchMock)
})

afterEach(() => {
  vi.unstubAllGlobals()
  fetchMock.mockReset()
})

async function openLogin() {
  const view = renderRoutes('/user/login')
  await screen.findByTestId('login-submit')
  return view
}

function field(testId: string) {
  const el = screen.getByTestId(testId)
  return el instanceof HTMLInputElement ? el : within(el).getByRole('textbox')
}

describe('login page validation', () => {
  it('shows the phone, password and privacy messages on an empty submit', async () => {
    const user = userEvent.setup()
    await openLogin()
    await user.click(screen.getByTestId('login-submit'))
    expect(await screen.findByText('请输入正确的手机号')).toBeInTheDocument()
    expect(await screen.findByText('请输入密码')).toBeInTheDocument()
    expect(await screen.findByText('请先阅读隐私协议')).toBeInTheDocument()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('rejects a malformed mobile number and strips whitespace', async () => {
    const user = userEvent.setup()
    await openLogin()
    const mobile = field('login-mobile')
    await user.type(mobile, '1100000000')
    await user.click(screen.getByTestId('login-submit'))
    expect(await screen.findByText('请输入正确的手机号')).toBeInTheDocument()
    await user.clear(mobile)
    await user.type(mobile, '138 0000 0000')
    expect(mobile).toHaveValue('13800000000')
    await waitFor(() => expect(screen.queryByText('请输入正确的手机号')).not.toBeInTheDocument())
  })

  it('requires the privacy acceptance even with valid credentials', async () => {
    const user = userEvent.setup()
    await openLogin()
    await user.type(field('login-mobile'), '13800000000')
    await user.type(screen.getByTestId('login-password'), 'Aed@123456')
    await user.click(screen.getByTestId('login-submit'))
    expect(await screen.findByText('请先阅读隐私协议')).toBeInTheDocument()
    expect(screen.queryByText('请输入正确的手机号')).not.toBeInTheDocument()
    expect(screen.queryByText('请输入密码')).not.toBeInTheDocument()
    expect(fetchMock).not.toHaveBeenCalled()
  })

  it('asks for the SMS code on the phone tab', async () => {
    const user = userEvent.setup()
    await openLogin()
    await user.click(screen.getByTestId('login-tab-phone'))
    await user.click(screen.getByTestId('login-submit'))
    expect(await screen.findByText('请输入验证码')).toBeInTheDocument()
    expect(screen.queryByText('请输入密码')).not.toBeInTheDocument()
  })

  it('sends the password payload once everything is valid', async () => {
    const user = userEvent.setup()
    fetchMock.mockResolvedValueOnce(
      new Response(JSON.stringify({ code: 5, msg: '账号已锁定', data: null }), { status: 200 }),
    )
    await openLogin()
    await user.type(field('login-mobile'), '13800000000')
    await user.type(screen.getByTestId('login-password'), 'Aed@123456')
    await user.click(screen.getByTestId('login-privacy'))
    await user.click(screen.getByTestId('login-submit'))
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1))
    const [url, init] = fetchMock.mock.calls[0]
    expect(String(url)).toBe('/api/v1/member/login')
    expect(JSON.parse(String(init?.body))).toEqual({
      mobile: '13800000000',
      password: 'Aed@123456',
      login_way: 1,
      member_type: 3,
    })
  })
})
