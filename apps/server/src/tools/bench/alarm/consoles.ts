import { LIVE_PATH, LiveType } from '@aed/contracts/live'
import WebSocket from 'ws'
import { demoMembers } from '../../../seed/seed.ts'
import { log } from '../harness/report.ts'
import type { ServerProcess } from '../harness/servers.ts'
import { signInHttp } from '../harness/sign-in.ts'
import type { Alarms, ConsoleWs } from './types.ts'

// 3. The consoles: live-channel WebSockets signed in as every single-organisation demo member in
// turn, alternately on each instance; each alarm frame is handed to the bench's matcher.

/** A first-aid alarm frame (data_type 2) as the consoles get it. */
export type AlarmFrame = { id: number; data_type: number; data: Record<string, unknown> }

/**
 * What a bench does with an alarm frame that console `c` got at `at` (ms since the epoch); `before`
 * is the largest push id the console had been sent before this frame.
 */
export type AlarmHandler = (
  consoles: ConsoleWs[],
  c: ConsoleWs,
  f: AlarmFrame,
  at: number,
  before: number,
) => void

/** The alarm bench's matcher: each alarm frame to its rescue in `alarms`, by the device's serial. */
export function rescueAlarms(alarms: Alarms): AlarmHandler {
  return (consoles, c, f, at, before) => {
    const sn = String(f.data.device_sn)
    const r = alarms.bySn.get(sn)
    if (!r) {
      alarms.unknown++
      return
    }
    if (!r.indexLink.startsWith(c.indexLink)) alarms.outOfScope++
    if (f.data.escalation_level !== 0) {
      alarms.escalations++
      return
    }
    if (r.got.has(c.i)) alarms.duplicates++
    else {
      if (r.pushId === null) r.pushId = f.id
      if (![...r.got.keys()].some((k) => consoles[k].instance === c.instance)) {
        for (const k of r.expected) {
          const o = consoles[k]
          if (o.instance === c.instance && k !== c.i) r.aheadOf.set(k, o.maxId)
        }
        r.aheadOf.set(c.i, before)
      }
      r.got.set(c.i, at - r.sentAt)
    }
  }
}

/** Counts a frame; an alarm's goes to `onAlarm`. */
function onFrame(c: ConsoleWs, raw: WebSocket.RawData, consoles: ConsoleWs[], onAlarm: AlarmHandler) {
  const at = Date.now()
  const f = JSON.parse(String(raw)) as AlarmFrame
  c.frames[f.data_type] = (c.frames[f.data_type] ?? 0) + 1
  const before = c.maxId
  if (f.id > c.maxId) c.maxId = f.id
  if (f.data_type === LiveType.AID_ALARM) onAlarm(consoles, c, f, at, before)
}

/** Opens one console and resolves once it has joined (its first frame), closed or timed out. */
function join(c: ConsoleWs, token: string, onTimeout: () => void, frame: (raw: WebSocket.RawData) => void) {
  const { ws } = c
  return new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      onTimeout()
      resolve()
    }, 30_000)
    ws.on('open', () => ws.send(JSON.stringify({ token })))
    ws.on('message', (raw) => {
      if (!c.open) {
        // The unconfirmed count closes the join: from here on every push reaches it.
        c.open = true
        clearTimeout(timer)
        resolve()
      }
      frame(raw)
    })
    ws.on('close', (code) => {
      c.open = false
      c.closedCode = code
      clearTimeout(timer)
      resolve()
    })
    ws.on('error', () => {})
  })
}

/**
 * Opens `count` consoles, 50 at a time, alternately on each instance; answers them, how many
 * joined, and the members' tokens by phone.
 */
export async function openConsoles(
  count: number,
  servers: ServerProcess[],
  links: Map<string, string>,
  onAlarm: AlarmHandler,
) {
  const members = demoMembers.filter((m, i, all) => all.findIndex((x) => x.phone === m.phone) === i)
  const singles = members.filter((m) => demoMembers.filter((x) => x.phone === m.phone).length === 1)
  const tokens = new Map<string, string>()
  for (const m of singles) tokens.set(m.phone, await signInHttp(servers[0].base, m.phone))
  const consoles: ConsoleWs[] = []
  const phones = singles.map((m) => m.phone)
  let joinFailed = 0
  const t0join = performance.now()
  for (let start = 0; start < count; start += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, count - start) }, (_, k) => {
        const i = start + k
        const phone = phones[i % phones.length]
        const member = singles.find((m) => m.phone === phone) as (typeof singles)[number]
        const instance = (i % servers.length) as 0 | 1
        const c: ConsoleWs = {
          i,
          ws: new WebSocket(`${servers[instance].base.replace(/^http/, 'ws')}${LIVE_PATH}`),
          instance,
          phone,
          indexLink: links.get(member.agency) as string,
          open: false,
          closedCode: null,
          frames: {},
          maxId: 0,
        }
        consoles.push(c)
        return join(
          c,
          tokens.get(phone) as string,
          () => joinFailed++,
          (raw) => onFrame(c, raw, consoles, onAlarm),
        )
      }),
    )
  }
  const joined = consoles.filter((c) => c.open).length
  log(
    `${joined} of ${count} consoles joined in ${((performance.now() - t0join) / 1000).toFixed(1)} s (${joinFailed} timed out); members ${phones.join(', ')}`,
  )
  return { consoles, joined, tokens }
}
