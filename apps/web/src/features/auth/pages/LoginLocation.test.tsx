import { DEFAULT_COORDINATE } from '@aed/contracts/constants'
import { cleanup, screen, waitFor } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '../../../i18n'
import { mapHome, sessionPosition } from '../../../lib/browserPosition'
import { storage } from '../../../lib/storage'
import { renderRoutes } from '../../../test/renderRoutes'

type Answer = { coords: { latitude: number; longitude: number } } | { code: number }
const getCurrentPosition = vi.fn()

/** The page's origin (https or not) and the browser's geolocation, answering `answer` when asked. */
function browser({ secure = true, answer }: { secure?: boolean; answer?: Answer | 'none' }) {
  Object.defineProperty(window, 'isSecureContext', { value: secure, configurable: true })
  getCurrentPosition.mockImplementation((ok: (p: unknown) => void, fail: (e: unknown) => void) => {
    if (answer === undefined || answer === 'none') return
    if ('coords' in answer) ok(answer)
    else fail(answer)
  })
  Object.defineProperty(navigator, 'geolocation', {
    value: answer === 'none' ? undefined : { getCurrentPosition },
    configurable: true,
  })
}

async function openLogin() {
  renderRoutes('/user/login')
  await screen.findByTestId('login-submit')
}

beforeEach(async () => {
  storage.clear()
  window.sessionStorage.clear()
  getCurrentPosition.mockReset()
  await i18n.changeLanguage('zh-CN')
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ code: 0, msg: '', data: null }))),
  )
})
afterEach(() => vi.unstubAllGlobals())

describe('the sign-in page’s browser location', () => {
  it('says the page must be https, and asks nothing, on plain http', async () => {
    browser({ secure: false, answer: { code: 1 } })
    await openLogin()
    expect(await screen.findByText('请在https协议下请求浏览器定位')).toBeInTheDocument()
    expect(getCurrentPosition).not.toHaveBeenCalled()
  })

  it('says the browser has no location', async () => {
    browser({ answer: 'none' })
    await openLogin()
    expect(await screen.findByText('浏览器不支持定位功能')).toBeInTheDocument()
  })

  it('asks to turn location on when it is refused', async () => {
    browser({ answer: { code: 1 } })
    await openLogin()
    expect(await screen.findByText('需要开启浏览器定位功能才能使用')).toBeInTheDocument()
  })

  it('says it failed on any other error (no fix, a timeout)', async () => {
    browser({ answer: { code: 2 } })
    await openLogin()
    expect(await screen.findByText('获取浏览器定位失败')).toBeInTheDocument()
    expect(sessionPosition()).toBeNull()
    expect(mapHome()).toEqual(DEFAULT_COORDINATE)
  })

  it('speaks English in en-US', async () => {
    await i18n.changeLanguage('en-US')
    browser({ answer: { code: 1 } })
    await openLogin()
    expect(await screen.findByText('Turn on location in the browser to use it')).toBeInTheDocument()
  })

  it('keeps a position for the session (GCJ-02) to centre maps, and asks once', async () => {
    browser({ answer: { coords: { latitude: 30.2741, longitude: 120.1551 } } })
    await openLogin()
    await waitFor(() => expect(sessionPosition()).not.toBeNull())
    const kept = sessionPosition()
    // Hangzhou's GCJ-02 offset: a few hundred metres east and south of the WGS-84 fix.
    expect(kept?.lon).toBeGreaterThan(120.1551)
    expect(kept?.lat).toBeLessThan(30.2741)
    expect(mapHome()).toEqual(kept)
    for (const text of [
      '请在https协议下请求浏览器定位',
      '需要开启浏览器定位功能才能使用',
      '获取浏览器定位失败',
    ])
      expect(screen.queryByText(text)).toBeNull()
    const asked = getCurrentPosition.mock.calls.length
    cleanup()
    await openLogin()
    expect(getCurrentPosition).toHaveBeenCalledTimes(asked)
  })
})
