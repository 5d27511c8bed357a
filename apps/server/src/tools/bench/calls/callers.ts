import { signOpenApiRequest } from '../../../lib/open-api-signing.ts'
import { demoMembers } from '../../../seed/seed.ts'
import type { AlarmHandler } from '../alarm/consoles.ts'
import type { ConsoleWs } from '../alarm/types.ts'
import { log } from '../harness/report.ts'
import type { ServerProcess } from '../harness/servers.ts'
import { signInHttp } from '../harness/sign-in.ts'
import type { CallAlarms, CallsOptions, Place, SentCall } from './types.ts'

// 4-5. The callers: per ordinary demo organisation an integrator (a service configuration with the
// open API, as an administrator creates it) and its administrator at a console; they post calls
// around the organisation's AEDs at the offered rate, each organisation in turn, to each instance
// in turn. And the consoles' side: each call's alarm frames by the call's id.

const OPEN_INTAKE = '/open-api/v1/call-event/'
const CONSOLE_INTAKE = '/api/v1/aid-event/call-event/'

/** Who calls for an organisation: its integrator's key and secret, and its administrator's token. */
export type Caller = {
  key: string
  indexLink: string
  places: Place[]
  api: { key: string; secret: string }
  token: string
}

/**
 * A service configuration with the open API for each organisation of `places` (POST
 * /api/v1/agency/app-service/config as the system super administrator), and its administrator's
 * token from the consoles' sign-ins.
 */
export async function makeCallers(
  base: string,
  places: Map<string, Place[]>,
  ids: Map<string, number>,
  links: Map<string, string>,
  tokens: Map<string, string>,
): Promise<Caller[]> {
  const admin = await signInHttp(base, '13800000000')
  const callers: Caller[] = []
  for (const [key, here] of places) {
    const r = await fetch(`${base}/api/v1/agency/app-service/config`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `JWT ${admin}` },
      body: JSON.stringify({ agency_id: ids.get(key), service: ['open_api'], state: 1 }),
    })
    const j = (await r.json()) as {
      code: number
      msg: string
      data: { access_token: string; secret: string }
    }
    if (j.code !== 0) throw new Error(`service configuration of ${key}: ${j.code} ${j.msg}`)
    const member = demoMembers.find((m) => m.agency === key && m.role_type === 0)
    const token = member && tokens.get(member.phone)
    if (!token) throw new Error(`no signed-in administrator of ${key}`)
    callers.push({
      key,
      indexLink: links.get(key) as string,
      places: here,
      api: { key: j.data.access_token, secret: j.data.secret },
      token,
    })
  }
  log(`callers: ${callers.map((c) => c.key).join(', ')} (an integrator and an administrator each)`)
  return callers
}

/** A mainland mobile number of the n-th call. */
const phoneOf = (n: number) => `139${String((n * 7919 + 12345) % 100_000_000).padStart(8, '0')}`

/** Posts call `n` of `caller` to `base`; answers the call's id. */
async function post(runId: string, n: number, caller: Caller, via: SentCall['via'], base: string) {
  const place = caller.places[n % caller.places.length]
  // Within about 200 m of the AED: its district, and AEDs around it.
  const jitter = (k: number) => (((n * k) % 400) - 200) / 100_000
  const form = {
    phone: phoneOf(n),
    lat: place.lat + jitter(31),
    lon: place.lon + jitter(37),
    location: `${place.location}附近`,
    description: '压测呼救',
  }
  let body: string
  let headers: Record<string, string>
  let target: string
  if (via === 'open-api') {
    target = OPEN_INTAKE
    body = JSON.stringify({ ...form, coord: 'gcj02', external_id: `B${runId}-${n}` })
    headers = signOpenApiRequest(caller.api.key, caller.api.secret, { method: 'POST', target, body })
  } else {
    target = CONSOLE_INTAKE
    body = JSON.stringify(form)
    headers = { authorization: `JWT ${caller.token}` }
  }
  const r = await fetch(`${base}${target}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body,
    signal: AbortSignal.timeout(60_000),
  })
  const text = await r.text()
  const j = JSON.parse(text) as { code: number; msg: string; data: { id: number; created: boolean } }
  if (j.code !== 0 || !j.data?.created) throw new Error(`HTTP ${r.status}: ${text.slice(0, 120)}`)
  return j.data.id
}

/**
 * Starts posting calls at `o.calls` a second from `runStart` (each due call sent when due, never
 * waiting for the answers before it); stop() ends the sending, `inflight` counts the answers
 * still to come.
 */
export function startCalls(
  o: Pick<CallsOptions, 'calls' | 'via'>,
  runId: string,
  callers: Caller[],
  servers: ServerProcess[],
  consoles: ConsoleWs[],
  calls: SentCall[],
  runStart: number,
) {
  const state = { inflight: 0 }
  const send = () => {
    const n = calls.length
    const caller = callers[n % callers.length]
    // Both ways alike per organisation: the turn moves on once all organisations had theirs.
    const via: SentCall['via'] =
      o.via === 'mixed' ? (Math.floor(n / callers.length) % 2 ? 'console' : 'open-api') : o.via
    const call: SentCall = {
      n,
      via,
      orgKey: caller.key,
      indexLink: caller.indexLink,
      sentAt: Date.now(),
      id: null,
      ackMs: null,
      error: null,
      expected: consoles.filter((c) => c.open && caller.indexLink.startsWith(c.indexLink)).map((c) => c.i),
    }
    calls.push(call)
    state.inflight++
    post(runId, n, caller, via, servers[n % servers.length].base).then(
      (id) => {
        call.id = id
        call.ackMs = Date.now() - call.sentAt
        state.inflight--
      },
      (e: Error) => {
        call.error = e.message
        state.inflight--
      },
    )
  }
  const timer = setInterval(() => {
    const due = Math.floor(((performance.now() - runStart) / 1000) * o.calls) - calls.length
    for (let k = 0; k < due; k++) send()
  }, 5)
  return { state, stop: () => clearInterval(timer) }
}

/** The consoles' matcher: a call's alarm frame (event_type 1) kept by the call's id and console. */
export function callAlarms(alarms: CallAlarms): AlarmHandler {
  return (_consoles, c, f, at) => {
    if (f.data.event_type !== 1) {
      alarms.other++
      return
    }
    if (f.data.escalation_level !== 0) {
      alarms.escalations++
      return
    }
    const id = Number(f.data.event_id)
    let byConsole = alarms.frames.get(id)
    if (!byConsole) {
      byConsole = new Map()
      alarms.frames.set(id, byConsole)
      alarms.pushIds.set(id, f.id)
    }
    const times = byConsole.get(c.i)
    if (times) times.push(at)
    else byConsole.set(c.i, [at])
  }
}
