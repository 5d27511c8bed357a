import { vi } from 'vitest'

type Handler = (
  body: unknown,
  init: RequestInit | undefined,
) => { code: number; msg?: string; data?: unknown }

/** Stubs fetch with envelope answers keyed by `METHOD /path`; unknown calls answer code 2. */
export function mockApi(handlers: Record<string, Handler>) {
  const fetchMock = vi.fn<typeof fetch>(async (input, init) => {
    const url = new URL(String(input), 'http://localhost')
    const key = `${init?.method ?? 'GET'} ${url.pathname}`
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined
    const answer = handlers[key]?.(body, init) ?? { code: 2, msg: `no mock for ${key}` }
    return new Response(JSON.stringify({ msg: '', data: null, ...answer }), { status: 200 })
  })
  vi.stubGlobal('fetch', fetchMock)
  return fetchMock
}

/** The header a mocked call was made with. */
export function headerOf(init: RequestInit | undefined, name: string) {
  return new Headers(init?.headers).get(name)
}
