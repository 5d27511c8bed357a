import {
  LIVE_END_REASONS,
  LIVE_PATH,
  LiveClose,
  type LiveEndReason,
  type LiveFrame,
  type LiveHello,
} from '@aed/contracts/live'

/** down: not connected (the count is polled); live: authenticated, frames arrive; stopped: refused or replaced. */
export type LiveStatus = 'down' | 'live' | 'stopped'

export const BACKOFF_FIRST_MS = 1000
export const BACKOFF_MAX_MS = 30_000

type Options = {
  token: string
  lang?: LiveHello['lang']
  onFrame: (frame: LiveFrame) => void
  onStatus: (status: LiveStatus) => void
  /** The server ended the session while the socket was open (4009), and why; then the status is 'stopped'. */
  onEnded?: (reason: LiveEndReason | null) => void
  url?: string
  /** The largest push id already seen (a new socket of the same token goes on from there). */
  after?: number
  WebSocket?: typeof WebSocket
}

/** The live channel's same-origin address (ws:// or wss:// as the page). */
export function liveUrl(location: Pick<Location, 'protocol' | 'host'> = window.location) {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${LIVE_PATH}`
}

/** The delay before reconnect attempt `n` (0-based): 1 s doubling up to 30 s. */
export function backoffMs(attempt: number) {
  return Math.min(BACKOFF_FIRST_MS * 2 ** attempt, BACKOFF_MAX_MS)
}

function parseFrame(raw: unknown): LiveFrame | null {
  if (typeof raw !== 'string') return null
  try {
    const frame = JSON.parse(raw) as LiveFrame
    return typeof frame?.id === 'number' && typeof frame.data_type === 'number' ? frame : null
  } catch {
    return null
  }
}

/**
 * One token's live connection: sends the hello (token, the last id seen, language), hands every
 * frame on, and reconnects with backoff. A refused token (4003) or a session the server ended
 * while open (4009: password changed, organisation disabled; told by onEnded) stops it; a new
 * token means a new client.
 */
export function openLive(options: Options) {
  const Socket = options.WebSocket ?? WebSocket
  let after = options.after
  let attempt = 0
  let socket: WebSocket | null = null
  let timer: ReturnType<typeof setTimeout> | undefined
  let closed = false

  const connect = () => {
    const ws = new Socket(options.url ?? liveUrl())
    socket = ws
    let live = false
    ws.onopen = () => {
      const hello: LiveHello = { token: options.token }
      if (after !== undefined) hello.after = after
      if (options.lang) hello.lang = options.lang
      ws.send(JSON.stringify(hello))
    }
    ws.onmessage = (event: MessageEvent) => {
      const frame = parseFrame(event.data)
      if (!frame) return
      if (!live) {
        live = true
        attempt = 0
        options.onStatus('live')
      }
      after = Math.max(after ?? 0, frame.id)
      options.onFrame(frame)
    }
    ws.onclose = (event: CloseEvent) => {
      if (closed || socket !== ws) return
      socket = null
      if (event.code === LiveClose.REPLACED) {
        const reason = LIVE_END_REASONS.find((r) => r === event.reason) ?? null
        options.onEnded?.(reason)
      }
      if (event.code === LiveClose.AUTH_FAILED || event.code === LiveClose.REPLACED) {
        options.onStatus('stopped')
        return
      }
      options.onStatus('down')
      timer = setTimeout(connect, backoffMs(attempt))
      attempt += 1
    }
  }

  connect()
  return {
    /** The largest push id seen so far. */
    lastId: () => after,
    close() {
      closed = true
      clearTimeout(timer)
      socket?.close(1000)
      socket = null
    },
  }
}
