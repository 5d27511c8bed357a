import type { DataOf, Endpoint } from '@aed/contracts'
import { vi } from 'vitest'

/** What a fake endpoint is called with. */
export type MockCall = {
  body: unknown
  /** The endpoint's `:name` path parameters, as strings. */
  params: Record<string, string>
  query: URLSearchParams
  init: RequestInit | undefined
}
type Answer<D> = { code: number; msg?: string; data?: D }

/** One answer of the fake API, for an endpoint of a contracts table. */
export type MockRoute = {
  method: string
  path: string
  handler: (call: MockCall) => Answer<unknown>
}

/** Answers calls of `e` (its method and path pattern) with `handler`. */
export function on<E extends Pick<Endpoint, 'method' | 'path' | 'response'>>(
  e: E,
  handler: (call: MockCall) => Answer<DataOf<E & Endpoint>>,
): MockRoute {
  return { method: e.method, path: e.path, handler }
}

function matcher(route: MockRoute) {
  const names: string[] = []
  const source = route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/:([a-zA-Z_]+)/g, (_, name) => {
    names.push(name)
    return '([^/]+)'
  })
  const pattern = new RegExp(`^${source}$`)
  return {
    route,
    names,
    match(method: string, pathname: string) {
      if (method !== route.method) return null
      const m = pattern.exec(pathname)
      return m ? Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])])) : null
    },
  }
}

/**
 * Stubs fetch with envelope answers keyed by endpoint; literal paths win over `:param` ones,
 * unknown calls answer code 2.
 */
export function mockApi(routes: MockRoute[]) {
  const table = routes.map(matcher).sort((a, b) => a.names.length - b.names.length)
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = new URL(String(input), 'http://localhost')
    const method = init?.method ?? 'GET'
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined
    let answer: Answer<unknown> = { code: 2, msg: `no mock for ${method} ${url.pathname}` }
    for (const entry of table) {
      const params = entry.match(method, url.pathname)
      if (params) {
        answer = entry.route.handler({ body, params, query: url.searchParams, init })
        break
      }
    }
    return new Response(JSON.stringify({ msg: '', data: null, ...answer }), { status: 200 })
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

/** The header a mocked call was made with. */
export function headerOf(init: RequestInit | undefined, name: string) {
  return new Headers(init?.headers).get(name)
}

/** `on`, recording every call in `calls` before answering, for tests that check what was asked. */
export function recordOn<E extends Pick<Endpoint, 'method' | 'path' | 'response'>>(
  e: E,
  calls: MockCall[],
  handler: (call: MockCall) => Answer<DataOf<E & Endpoint>>,
): MockRoute {
  return on(e, (call) => {
    calls.push(call)
    return handler(call)
  })
}
