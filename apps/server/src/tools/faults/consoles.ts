import { LIVE_PATH, LiveType } from '@aed/contracts/live'
import WebSocket from 'ws'

// The fault suite's consoles: live-channel WebSockets (first message {token, after?}; frames
// {id, data_type, data}) that reconnect on every close, as the web console does, with `after`
// the last push id they saw, so the server sends what they missed first. Each records every
// first-aid alarm it got, live or in such a replay.

/** An alarm frame a console got. */
export type SeenAlarm = { msgId: number; at: number; replayed: boolean }

export type Console = {
  i: number
  /** Where it connects: an instance's own address, or nginx's. */
  via: string
  url: string
  open: boolean
  /** The largest push id it was sent. */
  lastId: number
  /** Alarms by message id (messages.id), the first time it got each. */
  alarms: Map<number, SeenAlarm>
  joins: number
  /** When it last lost its socket, and when it was back (joined) after that. */
  lostAt: number | null
  backAt: number | null
  ws: WebSocket | null
}

/** Opens one console per entry of `targets` ({via, base}), signed in with `token`; each keeps reconnecting until stop(). */
export function openConsoles(targets: { via: string; base: string }[], token: string) {
  let stopped = false
  const consoles: Console[] = targets.map((t, i) => ({
    i,
    via: t.via,
    url: `${t.base.replace(/^http/, 'ws')}${LIVE_PATH}`,
    open: false,
    lastId: 0,
    alarms: new Map(),
    joins: 0,
    lostAt: null,
    backAt: null,
    ws: null,
  }))

  function connect(c: Console) {
    if (stopped) return
    const ws = new WebSocket(c.url)
    c.ws = ws
    // A replay is what comes before the first count frame (12), which closes the join.
    let joined = false
    ws.on('open', () => ws.send(JSON.stringify(c.joins === 0 ? { token } : { token, after: c.lastId })))
    ws.on('message', (raw) => {
      const f = JSON.parse(String(raw)) as { id: number; data_type: number; data: Record<string, unknown> }
      if (f.data_type === LiveType.UNCONFIRMED && !joined) {
        joined = true
        c.joins++
        c.open = true
        if (c.lostAt !== null && c.backAt === null) c.backAt = Date.now()
      }
      if (f.id > c.lastId) c.lastId = f.id
      if (
        f.data_type === LiveType.AID_ALARM &&
        typeof f.data.msg_id === 'number' &&
        !c.alarms.has(f.data.msg_id)
      )
        c.alarms.set(f.data.msg_id, { msgId: f.data.msg_id, at: Date.now(), replayed: !joined })
    })
    ws.on('error', () => {})
    ws.on('close', () => {
      if (c.open) {
        c.lostAt = Date.now()
        c.backAt = null
      }
      c.open = false
      c.ws = null
      if (!stopped) setTimeout(() => connect(c), 300 + Math.random() * 400)
    })
  }

  for (const c of consoles) connect(c)
  return {
    consoles,
    /** Consoles joined now. */
    openCount: () => consoles.filter((c) => c.open).length,
    stop() {
      stopped = true
      for (const c of consoles) c.ws?.terminate()
    },
  }
}

export type Consoles = ReturnType<typeof openConsoles>
