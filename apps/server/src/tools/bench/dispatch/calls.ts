import { LIVE_PATH, LiveType } from '@aed/contracts/live'
import WebSocket from 'ws'
import { log } from '../harness/report.ts'
import { type ServerProcess, sleep } from '../harness/servers.ts'
import { CALL_DESCRIPTION } from './setup.ts'
import type { Areas, Place, SentCall } from './types.ts'

// 3-4. Calls through a real server: recorded by the system administrator (登记呼救, POST
// /api/v1/aid-event/call-event/), one at a time (target 2) or all at once (target 3), each to the
// instances in turn; a console per instance (the live channel, signed in as the same
// administrator) notes when each call's dispatch first showed a step: `started`, `alerted` (its
// first alerts and their SMS committed). Then the responders answer their links.

const INTAKE = '/api/v1/aid-event/call-event/'

/** A console on an instance: every dispatch frame's kind, first time per call. */
export function openConsole(server: ServerProcess, token: string, calls: Map<number, SentCall>) {
  const ws = new WebSocket(`${server.base.replace(/^http/, 'ws')}${LIVE_PATH}`)
  /** Frames of calls whose answer had not come yet: kept until it does. */
  const early = new Map<number, Map<string, number>>()
  const joined = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`console on ${server.base} did not join`)), 30_000)
    ws.on('open', () => ws.send(JSON.stringify({ token })))
    ws.on('message', (raw) => {
      clearTimeout(timer)
      resolve()
      const at = Date.now()
      const f = JSON.parse(String(raw)) as { data_type: number; data: { call_id?: number; kind?: string } }
      if (f.data_type !== LiveType.DISPATCH || !f.data.call_id || !f.data.kind) return
      const call = calls.get(f.data.call_id)
      const frames = call?.frames ?? early.get(f.data.call_id) ?? new Map<string, number>()
      if (!frames.has(f.data.kind)) frames.set(f.data.kind, at)
      if (!call) early.set(f.data.call_id, frames)
    })
    ws.on('error', reject)
  })
  return {
    joined,
    /** Hands a call the frames that came before its answer. */
    adopt(call: SentCall) {
      const frames = call.id === null ? undefined : early.get(call.id)
      if (!frames) return
      for (const [k, t] of frames) if (!call.frames.has(k) || call.frames.get(k)! > t) call.frames.set(k, t)
      early.delete(call.id as number)
    },
    close: () => ws.terminate(),
  }
}

export type Console = ReturnType<typeof openConsole>

/** A mainland mobile number of the n-th call. */
const phoneOf = (n: number) => `139${String((n * 7919 + 54321) % 100_000_000).padStart(8, '0')}`

/** Records call `call` on its instance; fills its answer (or its error). */
export async function postCall(
  servers: ServerProcess[],
  token: string,
  call: SentCall,
  byId: Map<number, SentCall>,
  consoles: Console[],
) {
  const body = JSON.stringify({
    phone: phoneOf(call.n),
    lat: call.place.lat,
    lon: call.place.lon,
    location: `压测派单地点${call.n}号`,
    description: CALL_DESCRIPTION,
  })
  call.sentAt = Date.now()
  try {
    const r = await fetch(`${servers[call.instance].base}${INTAKE}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `JWT ${token}` },
      body,
      signal: AbortSignal.timeout(120_000),
    })
    const text = await r.text()
    call.answeredAt = Date.now()
    const j = JSON.parse(text) as { code: number; msg: string; data: { id: number } }
    if (j.code !== 0) throw new Error(`HTTP ${r.status}: ${text.slice(0, 160)}`)
    call.id = j.data.id
    byId.set(call.id, call)
    for (const c of consoles) c.adopt(call)
  } catch (e) {
    call.error = (e as Error).message
  }
}

/** The calls of a kind: `count` places taken in turn from the areas `mix` names. */
export function plannedCalls(
  kind: SentCall['kind'],
  first: number,
  count: number,
  places: Areas,
  mix: (keyof Areas)[],
  instances: number,
): SentCall[] {
  return Array.from({ length: count }, (_, k) => {
    const area = mix[k % mix.length]
    const list = places[area]
    const place: Place = list[Math.floor(k / mix.length) % list.length]
    return {
      n: first + k,
      kind,
      area,
      place,
      instance: (first + k) % instances,
      sentAt: 0,
      answeredAt: null,
      id: null,
      error: null,
      frames: new Map(),
    }
  })
}

/** Waits until every answered call's dispatch showed `kind` (or `timeoutMs` passed); answers the wait, ms. */
export async function waitForFrames(calls: SentCall[], kind: string, timeoutMs: number) {
  const t0 = performance.now()
  const pending = () => calls.filter((c) => c.id !== null && !c.frames.has(kind)).length
  while (pending() > 0 && performance.now() - t0 < timeoutMs) await sleep(100)
  const left = pending()
  if (left) log(`${left} calls never showed '${kind}' within ${timeoutMs / 1000} s`)
  return performance.now() - t0
}

/** What the responders' answers came to. */
export type Answers = { sent: number; accepted: number; refused: Map<string, number>; failed: number }

/**
 * The responders answer: each alerted responder taps accept on each of their links in turn, the
 * oldest first (a person who got two calls' SMS and says yes to both), every responder at once
 * (`concurrency` requests in flight at most), to the instances in turn.
 */
export async function acceptAll(
  servers: ServerProcess[],
  links: Map<number, string[]>,
  concurrency: number,
): Promise<Answers> {
  const out: Answers = { sent: 0, accepted: 0, refused: new Map(), failed: 0 }
  const queue = [...links.entries()]
  let k = 0
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      const [, tokens] = next
      for (const token of tokens) {
        const base = servers[k++ % servers.length].base
        out.sent++
        try {
          const r = await fetch(`${base}/responder-api/v1/alert/${token}/accept`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: '{}',
            signal: AbortSignal.timeout(60_000),
          })
          const j = (await r.json()) as { code: number; msg: string }
          if (j.code === 0) out.accepted++
          else out.refused.set(j.msg, (out.refused.get(j.msg) ?? 0) + 1)
        } catch {
          out.failed++
        }
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return out
}
