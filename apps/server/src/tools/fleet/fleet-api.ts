import type { CabinetProfile } from './cabinet-model.ts'
import type { CallSite } from './call-model.ts'
import type { DeviceProfile } from './model.ts'

// Where the simulator gets its devices and cabinets: the server's own API, signed in as the demo
// system super administrator (the factory list, the registered list for the installations, the cabinet
// list, and each one's secret).
// The same for PGlite and PostgreSQL: PGlite cannot be opened by a second process.

export type FleetDevice = DeviceProfile & {
  id: number
  secret: string
  /** The status the platform shows now (0-4; 0 for stock): the simulation goes on from it. */
  status: number
}

type Answer<T> = { code: number; msg: string; data: T }

async function call<T>(base: string, path: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const res = await fetch(new URL(path, base), {
    ...init,
    headers: {
      'content-type': 'application/json',
      ...(init.token ? { authorization: `JWT ${init.token}` } : {}),
      ...init.headers,
    },
  })
  const body = (await res.json().catch(() => null)) as Answer<T> | null
  if (!body || body.code !== 0) {
    throw new Error(
      `${init.method ?? 'GET'} ${path}: HTTP ${res.status} ${body ? `${body.code} ${body.msg}` : ''}`,
    )
  }
  return body.data
}

type Page<T> = { count: number; resource: T[] }
type Registered = {
  id: number
  device_sn: string
  model: string
  fw_version: string | null
  lat: number
  lon: number
  electrode_sheet_expire: string
  battery_expire: string
  status: number
  location: string
}
type Factory = { id: number; device_sn: string; model: string; fw_version: string | null; is_register: 0 | 1 }

async function all<T>(base: string, token: string, query: string, path = '/api/v1/device/'): Promise<T[]> {
  const out: T[] = []
  for (let page = 1; ; page++) {
    const p = await call<Page<T>>(base, `${path}?${query}&page=${page}&page_size=500`, { token })
    out.push(...p.resource)
    if (p.resource.length === 0 || out.length >= p.count) return out
  }
}

/** Runs `fn` over `items`, `n` at a time. */
export async function pool<T, R>(
  items: T[],
  n: number,
  fn: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(n, items.length) }, async () => {
      while (next < items.length) {
        const i = next++
        out[i] = await fn(items[i], i)
      }
    }),
  )
  return out
}

/** Signs the member in: the session token. */
export async function signIn(base: string, login: { phone: string; password: string }) {
  const { token } = await call<{ token: string }>(base, '/api/v1/member/login', {
    method: 'POST',
    body: JSON.stringify({ mobile: login.phone, password: login.password, login_way: 1, member_type: 3 }),
  })
  return token
}

/**
 * Up to `count` devices of the factory list, registered ones first (they have an installation, so they can
 * be carried away), with their secrets.
 */
export async function loadFleet(
  base: string,
  count: number,
  login: { phone: string; password: string },
): Promise<FleetDevice[]> {
  const token = await signIn(base, login)
  const [registered, factory] = await Promise.all([
    all<Registered>(base, token, 'device_list_type=1'),
    all<Factory>(base, token, 'device_list_type=2'),
  ])
  const installations = new Map(registered.map((r) => [r.device_sn, r]))
  const chosen = [...factory]
    .sort(
      (a, b) =>
        Number(installations.has(b.device_sn)) - Number(installations.has(a.device_sn)) || a.id - b.id,
    )
    .slice(0, count)
  return pool(chosen, 8, async (d) => {
    const { secret } = await call<{ sn: string; secret: string }>(base, `/api/v1/device/${d.id}/credential`, {
      token,
    })
    const installation = installations.get(d.device_sn)
    return {
      id: d.id,
      sn: d.device_sn,
      secret,
      model: d.model || 'AED',
      fwVersion: d.fw_version ?? 'V1.0.0',
      installation: installation ? { lat: installation.lat, lon: installation.lon } : null,
      padsExpire: installation?.electrode_sheet_expire ?? null,
      batteryExpire: installation?.battery_expire ?? null,
      status: installation?.status ?? 0,
    }
  })
}

/** A cabinet the simulator drives: its profile, id and secret. */
export type FleetCabinet = CabinetProfile & { id: number; secret: string }

type ListedCabinet = {
  id: number
  cabinet_sn: string
  fw_version: string | null
  lat: number | null
  lon: number | null
  bind_device: 0 | 1
}

/** Up to `count` cabinets of the cabinet list, bound ones first, with their secrets. */
export async function loadCabinets(
  base: string,
  count: number,
  login: { phone: string; password: string },
): Promise<FleetCabinet[]> {
  if (count <= 0) return []
  const token = await signIn(base, login)
  const listed = await all<ListedCabinet>(base, token, '', '/api/v1/cabinet/')
  const chosen = [...listed].sort((a, b) => b.bind_device - a.bind_device || a.id - b.id).slice(0, count)
  return pool(chosen, 8, async (c) => {
    const { secret } = await call<{ sn: string; secret: string }>(
      base,
      `/api/v1/cabinet/${c.id}/credential`,
      {
        token,
      },
    )
    return {
      id: c.id,
      sn: c.cabinet_sn,
      secret,
      fwVersion: c.fw_version ?? 'C1.0.0',
      installation: c.lat !== null && c.lon !== null ? { lat: c.lat, lon: c.lon } : null,
      bound: c.bind_device === 1,
    }
  })
}

/** Every registered AED with its place: where the simulator's calls come from. */
export async function loadSites(base: string, token: string): Promise<CallSite[]> {
  const registered = await all<Registered>(base, token, 'device_list_type=1')
  return registered.map((r) => ({ sn: r.device_sn, lat: r.lat, lon: r.lon, location: r.location }))
}
