import { Code } from '@aed/contracts'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { i18n } from '../i18n'
import { ApiError, RequestError } from './errors'
import { configureRequest, REQUEST_TIMEOUT_MS, request } from './request'
import { sessionStore } from './session'
import { StorageKey, storage } from './storage'

const notify = vi.fn<(text: string) => void>()
const navigate = vi.fn<(to: string) => void>()
const fetchMock = vi.fn<typeof fetch>()

function reply(body: unknown, status = 200) {
  fetchMock.mockResolvedValueOnce(
    new Response(typeof body === 'string' ? body : JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json' },
    }),
  )
}

function lastCall() {
  const [url, init] = fetchMock.mock.calls.at(-1)!
  return { url: String(url), init: init!, headers: new Headers(init!.headers) }
}

beforeEach(async () => {
  vi.stubGlobal('fetch', fetchMock)
  configureRequest({ notify, navigate })
  storage.clear()
  await i18n.changeLanguage('zh-CN')
  window.history.replaceState(null, '', '/watchBoard/dashboard?a=1')
})

afterEach(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
  fetchMock.mockReset()
  notify.mockReset()
  navigate.mockReset()
})

describe('request headers and body', () => {
  it('sends token, username, language and JSON to /api', async () => {
    storage.set(StorageKey.token, 'tok')
    storage.set(StorageKey.userInfo, { phone: '13800000000' })
    await i18n.changeLanguage('en-US')
    reply({ code: 0, msg: 'ok', data: { x: 1 } })
    await expect(
      request('/v1/member/login', { method: 'POST', body: { a: 1 }, query: { q: 'z', empty: '' } }),
    ).resolves.toEqual({
      x: 1,
    })
    const { url, init, headers } = lastCall()
    expect(url).toBe('/api/v1/member/login?q=z')
    expect(init.method).toBe('POST')
    expect(init.body).toBe('{"a":1}')
    expect(headers.get('Authorization')).toBe('JWT tok')
    expect(headers.get('username')).toBe('13800000000')
    expect(headers.get('Accept-Language')).toBe('en-US')
    expect(headers.get('Content-Type')).toBe('application/json')
  })

  it('sends FormData as multipart and lets an explicit token win', async () => {
    storage.set(StorageKey.token, 'stored')
    reply({ code: 0, msg: '', data: null })
    const form = new FormData()
    form.set('file', 'x')
    await request('/v1/system/file/', { method: 'POST', body: form, token: 'login-token' })
    const { init, headers } = lastCall()
    expect(init.body).toBe(form)
    expect(headers.get('Content-Type')).toBeNull()
    expect(headers.get('Authorization')).toBe('JWT login-token')
  })

  it('omits auth headers when signed out', async () => {
    reply({ code: 0, msg: '', data: 1 })
    await request('/v1/system/menu')
    expect(lastCall().headers.get('Authorization')).toBeNull()
    expect(lastCall().headers.get('username')).toBeNull()
  })
})

describe('envelope error catalogue', () => {
  it('code -1 clears the session and goes to login keeping the redirect', async () => {
    sessionStore.signIn({
      token: 't',
      phone: '1',
      permission_list: ['device'],
    } as Parameters<typeof sessionStore.signIn>[0])
    reply({ code: Code.TOKEN, msg: '登录已失效，请重新登录', data: null })
    await expect(request('/v1/system/menu')).rejects.toMatchObject({ code: -1 })
    expect(storage.get(StorageKey.token)).toBeNull()
    expect(storage.get(StorageKey.userInfo)).toBeNull()
    expect(storage.get(StorageKey.permissions)).toBeNull()
    expect(navigate).toHaveBeenCalledWith(
      `/user/login?redirect=${encodeURIComponent('/watchBoard/dashboard?a=1')}`,
    )
  })

  it('code -2 shows 无权限操作！', async () => {
    reply({ code: Code.FORBIDDEN, msg: 'whatever', data: null })
    await expect(request('/v1/x')).rejects.toBeInstanceOf(ApiError)
    expect(notify).toHaveBeenCalledWith('无权限操作！')
  })

  it('other codes show the server message and throw ApiError with code and data', async () => {
    reply({ code: Code.NEED_SMS_CODE, msg: '请输入验证码', data: { need: true } })
    const error = await request('/v1/member/login', { method: 'POST', body: {} }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ code: 7, msg: '请输入验证码', data: { need: true } })
    expect(notify).toHaveBeenCalledWith('请输入验证码')
    expect(navigate).not.toHaveBeenCalled()
  })
})

describe('HTTP error catalogue', () => {
  it.each([
    [401, '登录过期或权限不足, 请重新登陆!'],
    [403, '登录过期或权限不足, 请重新登陆!'],
    [406, '登陆超时请重新登录!'],
    [500, '请求数据失败, 请重试!'],
    [502, '请求数据失败, 请重试!'],
  ])('status %i shows %s', async (status, text) => {
    reply('<html>oops</html>', status)
    await expect(request('/v1/x')).rejects.toBeInstanceOf(RequestError)
    expect(notify).toHaveBeenCalledWith(text)
  })

  it('a 401 carrying code -1 also signs out', async () => {
    storage.set(StorageKey.token, 't')
    reply({ code: -1, msg: 'expired', data: null }, 401)
    await expect(request('/v1/x')).rejects.toMatchObject({ code: -1 })
    expect(notify).toHaveBeenCalledWith('登录过期或权限不足, 请重新登陆!')
    expect(storage.get(StorageKey.token)).toBeNull()
    expect(navigate).toHaveBeenCalled()
  })

  it('another status shows the generic text but keeps the envelope code for callers', async () => {
    reply({ code: 2, msg: '接口不存在', data: null }, 404)
    await expect(request('/v1/x')).rejects.toMatchObject({ code: 2, msg: '接口不存在' })
    expect(notify).toHaveBeenCalledTimes(1)
    expect(notify).toHaveBeenCalledWith('请求数据失败, 请重试!')
  })

  it('a 200 that is not an envelope fails', async () => {
    reply('not json')
    await expect(request('/v1/x')).rejects.toBeInstanceOf(RequestError)
    expect(notify).toHaveBeenCalledWith('请求数据失败, 请重试!')
  })
})

describe('transport errors', () => {
  it('network failure shows 网络错误,请检查网络!', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'))
    await expect(request('/v1/x')).rejects.toMatchObject({ kind: 'network' })
    expect(notify).toHaveBeenCalledWith('网络错误,请检查网络!')
  })

  it('another error shows its text, else 未知错误,请重试!', async () => {
    fetchMock.mockRejectedValueOnce(new Error('boom'))
    await expect(request('/v1/x')).rejects.toMatchObject({ kind: 'unknown' })
    expect(notify).toHaveBeenLastCalledWith('boom')
    fetchMock.mockRejectedValueOnce('weird')
    await expect(request('/v1/x')).rejects.toMatchObject({ kind: 'unknown' })
    expect(notify).toHaveBeenLastCalledWith('未知错误,请重试!')
  })

  it('a cancelled request is silent', async () => {
    fetchMock.mockImplementationOnce(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
        }),
    )
    const controller = new AbortController()
    const pending = request('/v1/x', { signal: controller.signal })
    controller.abort()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
    expect(notify).not.toHaveBeenCalled()
  })

  it('times out after 60 s', async () => {
    vi.useFakeTimers()
    fetchMock.mockImplementationOnce(
      (_url, init) =>
        new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
        }),
    )
    const pending = request('/v1/x').catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1)
    expect(notify).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(await pending).toMatchObject({ kind: 'timeout' })
    expect(notify).toHaveBeenCalledWith('请求超时, 请重试!')
  })
})
