import type { AlertAction, ResponderAlert } from '@aed/contracts/dispatch'
import type { Lang } from './texts'

// The paths of responderAlertApi (contracts/dispatch.ts), written here rather than imported:
// importing the endpoint table would bring zod and every schema of the file into a page that
// must load on a slow phone network. api.test.ts checks them against the contract.
const BASE = '/responder-api/v1/alert/'

/** GET path of the alert a link opens. */
export const alertPath = (token: string) => `${BASE}${encodeURIComponent(token)}`
/** POST path of a responder's action on it. */
export const actionPath = (token: string, action: AlertAction) => `${alertPath(token)}/${action}`

/** What a call came back with: the alert, the server's refusal (its msg), or no answer at all. */
export type AlertAnswer =
  | { kind: 'ok'; alert: ResponderAlert; received: number; skew: number }
  | { kind: 'refused'; code: number; msg: string }
  | { kind: 'offline' }

/** The body of the `location` action: the browser's WGS-84 position. */
export type Position = { lat: number; lon: number; accuracy?: number }

const TIMEOUT_MS = 15_000

async function read(response: Promise<Response>): Promise<AlertAnswer> {
  try {
    const r = await response
    const envelope = (await r.json()) as { code: number; msg: string; data: ResponderAlert | null }
    if (envelope.code !== 0 || !envelope.data)
      return { kind: 'refused', code: envelope.code, msg: envelope.msg }
    const received = Date.now()
    // The server's clock, for the time since the call: a phone's clock may be minutes off.
    const date = Date.parse(r.headers.get('date') ?? '')
    return { kind: 'ok', alert: envelope.data, received, skew: Number.isNaN(date) ? 0 : date - received }
  } catch {
    // No connection, a timeout, or a page that is not the API's JSON (a proxy's error page).
    return { kind: 'offline' }
  }
}

function send(path: string, lang: Lang, init: RequestInit = {}): Promise<Response> {
  return fetch(path, {
    ...init,
    headers: {
      accept: 'application/json',
      // The server writes msg in this language.
      'accept-language': lang === 'en' ? 'en-US' : 'zh-CN',
      ...(init.body ? { 'content-type': 'application/json' } : {}),
    },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  })
}

/** Loads the alert; the first load may take the request rescue.html started before the script arrived. */
export function loadAlert(token: string, lang: Lang): Promise<AlertAnswer> {
  const early = takeEarly(token)
  return read(early ?? send(alertPath(token), lang))
}

/** Sends an action (accept, decline, arrived, location) and answers the alert after it. */
export function sendAction(
  token: string,
  action: AlertAction,
  lang: Lang,
  at?: Position,
): Promise<AlertAnswer> {
  const body = at ? { lat: at.lat, lon: at.lon, coord: 'wgs84', accuracy: at.accuracy } : {}
  return read(send(actionPath(token, action), lang, { method: 'POST', body: JSON.stringify(body) }))
}

declare global {
  interface Window {
    /** The alert's request, started by rescue.html's inline script with the page. */
    __rescueAlert?: { token: string; response: Promise<Response> }
  }
}

function takeEarly(token: string): Promise<Response> | undefined {
  const early = window.__rescueAlert
  window.__rescueAlert = undefined
  return early?.token === token ? early.response : undefined
}
