import { pathOf } from '@aed/contracts'
import { responderAlertApi } from '@aed/contracts/dispatch'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ALERT_TOKEN, alert } from '../test/rescueFixtures'
import { actionPath, alertPath, loadAlert, sendAction } from './api'

const json = (body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json', ...headers } })

afterEach(() => {
  vi.unstubAllGlobals()
  window.__rescueAlert = undefined
})

describe('the alert API', () => {
  it('calls the paths of the contract', () => {
    expect(alertPath(ALERT_TOKEN)).toBe(pathOf(responderAlertApi.alert, { token: ALERT_TOKEN }))
    for (const action of ['accept', 'decline', 'arrived', 'location'] as const) {
      expect(actionPath(ALERT_TOKEN, action)).toBe(
        pathOf(responderAlertApi.act, { token: ALERT_TOKEN, action }),
      )
    }
    expect(responderAlertApi.alert.method).toBe('GET')
    expect(responderAlertApi.act.method).toBe('POST')
  })

  it('answers the alert with the server clock’s offset from the Date header', async () => {
    const server = Date.now() + 90_000
    const fetch = vi.fn(async () =>
      json({ code: 0, msg: '', data: alert() }, { date: new Date(server).toUTCString() }),
    )
    vi.stubGlobal('fetch', fetch)
    const answer = await loadAlert(ALERT_TOKEN, 'en')
    expect(answer).toMatchObject({ kind: 'ok', alert: { state: 'alerted' } })
    if (answer.kind === 'ok') expect(answer.skew).toBeGreaterThan(88_000)
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toBe(alertPath(ALERT_TOKEN))
    expect(init.headers).toMatchObject({ 'accept-language': 'en-US' })
  })

  it('answers a refusal with the server’s msg, and no answer as offline', async () => {
    vi.stubGlobal('fetch', async () => json({ code: 1, msg: '链接无效或已过期', data: null }))
    expect(await loadAlert(ALERT_TOKEN, 'zh')).toEqual({ kind: 'refused', code: 1, msg: '链接无效或已过期' })
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch')
    })
    expect(await loadAlert(ALERT_TOKEN, 'zh')).toEqual({ kind: 'offline' })
    // A proxy's HTML error page is no answer either.
    vi.stubGlobal('fetch', async () => new Response('<html>502</html>', { status: 502 }))
    expect(await loadAlert(ALERT_TOKEN, 'zh')).toEqual({ kind: 'offline' })
  })

  it('takes the request rescue.html started, once, for its own token only', async () => {
    const fetch = vi.fn(async () => json({ code: 0, msg: '', data: alert({ accepted: 2 }) }))
    vi.stubGlobal('fetch', fetch)
    window.__rescueAlert = {
      token: ALERT_TOKEN,
      response: Promise.resolve(json({ code: 0, msg: '', data: alert() })),
    }
    expect(await loadAlert(ALERT_TOKEN, 'zh')).toMatchObject({ alert: { accepted: 1 } })
    expect(fetch).not.toHaveBeenCalled()
    expect(await loadAlert(ALERT_TOKEN, 'zh')).toMatchObject({ alert: { accepted: 2 } })
    window.__rescueAlert = { token: 'another', response: Promise.resolve(json({})) }
    await loadAlert(ALERT_TOKEN, 'zh')
    expect(fetch).toHaveBeenCalledTimes(2)
  })

  it('posts an action with the browser’s position as WGS-84', async () => {
    const fetch = vi.fn(async () => json({ code: 0, msg: '', data: alert({ state: 'accepted' }) }))
    vi.stubGlobal('fetch', fetch)
    await sendAction(ALERT_TOKEN, 'location', 'zh', { lat: 30.27, lon: 120.13, accuracy: 12 })
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit]
    expect(url).toBe(`${alertPath(ALERT_TOKEN)}/location`)
    expect(init.method).toBe('POST')
    expect(JSON.parse(String(init.body))).toEqual({ lat: 30.27, lon: 120.13, coord: 'wgs84', accuracy: 12 })
    await sendAction(ALERT_TOKEN, 'decline', 'zh')
    expect(JSON.parse(String((fetch.mock.calls[1] as unknown as [string, RequestInit])[1].body))).toEqual({})
  })
})
