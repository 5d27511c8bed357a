import { Code, type Envelope } from '@aed/contracts'
import { i18n } from '../i18n'
import { ApiError, isAbort, RequestError } from './errors'
import { sessionStore } from './session'

export const API_BASE = '/api'
export const REQUEST_TIMEOUT_MS = 60_000
export const LOGIN_PATH = '/user/login'

type Handlers = {
  /** Shows an error toast for 3 s. */
  notify: (text: string) => void
  /** Moves to another console path (the router's navigate once the app is up). */
  navigate: (to: string) => void
}

const handlers: Handlers = {
  notify: (text) => console.error(text),
  navigate: (to) => window.location.assign(to),
}

/** Wires the toast and navigation used on errors; called once by the app providers. */
export function configureRequest(next: Partial<Handlers>) {
  Object.assign(handlers, next)
}

type QueryValue = string | number | boolean | null | undefined
export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE'
  query?: Record<string, QueryValue>
  /** A plain object is sent as JSON, FormData as multipart. */
  body?: unknown
  signal?: AbortSignal
  /** Overrides the stored token, e.g. the sign-in token while picking an organisation. */
  token?: string
  username?: string
  timeoutMs?: number
}

/** The login path carrying the current location as `redirect`. */
export function loginRedirect(location: { pathname: string; search: string } = window.location) {
  if (location.pathname === LOGIN_PATH) return `${LOGIN_PATH}${location.search}`
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(location.pathname + location.search)}`
}

/** The URL of an API path (without the `/api` base) with its query, empty values left out. */
export function buildUrl(path: string, query?: Record<string, QueryValue>) {
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== '') params.set(k, String(v))
  }
  const qs = params.toString()
  return `${API_BASE}${path}${qs ? `?${qs}` : ''}`
}

/** The headers of a request: language, the session's token and user (or the options'), JSON body type. */
export function buildHeaders(options: RequestOptions = {}): Headers {
  const session = sessionStore.get()
  const headers = new Headers({ Accept: 'application/json', 'Accept-Language': i18n.language || 'zh-CN' })
  const token = options.token ?? session.token
  const username = options.username ?? session.userInfo?.phone
  if (token) headers.set('Authorization', `JWT ${token}`)
  if (username) headers.set('username', username)
  if (options.body !== undefined && !(options.body instanceof FormData)) {
    headers.set('Content-Type', 'application/json')
  }
  return headers
}

function isEnvelope(value: unknown): value is Envelope<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { code?: unknown }).code === 'number'
}

async function readEnvelope(response: Response): Promise<Envelope<unknown> | null> {
  try {
    const body: unknown = await response.json()
    return isEnvelope(body) ? body : null
  } catch {
    return null
  }
}

function signOut() {
  sessionStore.clear()
  handlers.navigate(loginRedirect())
}

/** Ends the console's session from outside a request (the live channel's 4009): says why, then goes to sign in. */
export function endSession(why: string) {
  handlers.notify(why)
  signOut()
}

function envelopeError(env: Envelope<unknown>): ApiError {
  if (env.code === Code.TOKEN) {
    if (env.msg) handlers.notify(env.msg)
    signOut()
  } else if (env.code === Code.FORBIDDEN) {
    handlers.notify(i18n.t('request.forbidden'))
  } else {
    handlers.notify(env.msg || i18n.t('request.unknown'))
  }
  return new ApiError(env.code, env.msg, env.data)
}

function httpError(status: number, env: Envelope<unknown> | null): Error {
  if (status === 401 || status === 403) handlers.notify(i18n.t('request.expired'))
  else if (status === 406) handlers.notify(i18n.t('request.timeoutLogin'))
  else handlers.notify(i18n.t('request.failed'))
  if (env?.code === Code.TOKEN) signOut()
  // The status decides the toast; an error envelope in the body still tells callers the code.
  return env && env.code !== Code.OK
    ? new ApiError(env.code, env.msg, env.data)
    : new RequestError('http', String(status), status)
}

/** Calls the API and resolves with `data` of a code-0 envelope; every failure is shown and thrown. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  return (await requestEnvelope<T>(path, options)).data
}

/** Like `request`, but resolves with the whole code-0 envelope, so callers can show the server's `msg`. */
export async function requestEnvelope<T>(path: string, options: RequestOptions = {}): Promise<Envelope<T>> {
  const controller = new AbortController()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    controller.abort()
  }, options.timeoutMs ?? REQUEST_TIMEOUT_MS)
  const cancel = () => controller.abort()
  if (options.signal?.aborted) controller.abort()
  options.signal?.addEventListener('abort', cancel)

  let response: Response
  try {
    response = await fetch(buildUrl(path, options.query), {
      method: options.method ?? 'GET',
      headers: buildHeaders(options),
      body:
        options.body === undefined
          ? undefined
          : options.body instanceof FormData
            ? options.body
            : JSON.stringify(options.body),
      signal: controller.signal,
    })
  } catch (error) {
    throw transportError(error, timedOut)
  } finally {
    clearTimeout(timer)
    options.signal?.removeEventListener('abort', cancel)
  }

  const env = await readEnvelope(response)
  if (response.status !== 200) throw httpError(response.status, env)
  if (!env) {
    handlers.notify(i18n.t('request.failed'))
    throw new RequestError('http', 'not an envelope', response.status)
  }
  if (env.code !== Code.OK) throw envelopeError(env)
  return env as Envelope<T>
}

function transportError(error: unknown, timedOut: boolean): unknown {
  if (timedOut) {
    handlers.notify(i18n.t('request.timeout'))
    return new RequestError('timeout', 'timeout')
  }
  if (isAbort(error)) return error
  if (error instanceof TypeError) {
    handlers.notify(i18n.t('request.network'))
    return new RequestError('network', error.message)
  }
  const text = error instanceof Error && error.message ? error.message : i18n.t('request.unknown')
  handlers.notify(text)
  return new RequestError('unknown', text)
}

/**
 * Like `requestEnvelope` for a multipart upload, reporting how much is sent (0-100): XHR, since
 * fetch cannot tell upload progress. Failures are shown and thrown as for any request.
 */
export function uploadEnvelope<T>(
  path: string,
  body: FormData,
  onProgress?: (percent: number) => void,
  timeoutMs = REQUEST_TIMEOUT_MS,
): Promise<Envelope<T>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', buildUrl(path))
    for (const [name, value] of buildHeaders({ body })) xhr.setRequestHeader(name, value)
    xhr.timeout = timeoutMs
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress?.(Math.round((e.loaded * 100) / e.total))
    }
    xhr.onload = () => {
      let env: Envelope<unknown> | null = null
      try {
        const parsed: unknown = JSON.parse(xhr.responseText)
        env = isEnvelope(parsed) ? parsed : null
      } catch {
        env = null
      }
      if (xhr.status !== 200) return reject(httpError(xhr.status, env))
      if (!env) {
        handlers.notify(i18n.t('request.failed'))
        return reject(new RequestError('http', 'not an envelope', xhr.status))
      }
      if (env.code !== Code.OK) return reject(envelopeError(env))
      resolve(env as Envelope<T>)
    }
    xhr.onerror = () => reject(transportError(new TypeError('network'), false))
    xhr.ontimeout = () => reject(transportError(null, true))
    xhr.send(body)
  })
}
