import net from 'node:net'
import pg from 'pg'

// An instance's link to PostgreSQL as the instance sees it. A link that goes silent without a
// reset (a partition, a firewall that drops instead of refusing) leaves every query and every new
// connection waiting for minutes of TCP retries: requests hang behind nginx, MQTT messages wait in
// this instance's pipeline, its consoles hear nothing. The watchdog asks PostgreSQL a trivial
// question every second on a connection of its own; when it is not answered twice in a row the
// link is down: every socket to PostgreSQL is destroyed (what waited on them fails now and is
// retried), and the parts that face the outside step aside until it answers again (app.ts,
// live.hub.ts, mqtt-external.ts, docs/deploy.md).

/** Whether this instance reaches its database, as the watchdog last found; PGlite is always up. */
export type DatabaseLink = {
  up(): boolean
  /** Calls `fn` with the new state on each change; answers the unsubscriber. */
  onChange(fn: (up: boolean) => void): () => void
}

/** A link that is always up: PGlite, and PostgreSQL without the watchdog (tests, tools). */
export const ALWAYS_UP: DatabaseLink = { up: () => true, onChange: () => () => {} }

/**
 * Every socket opened to PostgreSQL by this instance's pools and listener (pg's `stream` option),
 * so that a link found down can be cut at once instead of each socket waiting out TCP's retries.
 */
export class SocketRegistry {
  readonly #open = new Set<net.Socket>()

  /** For pg's `stream` option: a new socket, remembered until it closes. */
  readonly stream = (): net.Socket => {
    const s = new net.Socket()
    this.#open.add(s)
    s.once('close', () => this.#open.delete(s))
    return s
  }

  /** Destroys every open socket: their queries fail with an error, and the pools open new ones. */
  severAll(): number {
    const n = this.#open.size
    for (const s of this.#open) s.destroy(new Error('database link down: connection cut'))
    this.#open.clear()
    return n
  }

  get size() {
    return this.#open.size
  }
}

export type LinkWatchdog = DatabaseLink & {
  stop(): Promise<void>
}

export type WatchdogOptions = {
  url: string
  /** How long a probe may take before it counts as unanswered. */
  timeoutMs: number
  /** Between probes (1 s). */
  everyMs?: number
  /** Unanswered probes in a row that make the link down (2). */
  misses?: number
  /** Cut when the link goes down. */
  sockets: SocketRegistry
}

/**
 * Probes `url` with SELECT 1 on a connection of its own (itself cut and reopened after a miss)
 * and reports the link up or down. Starts up: a database that was never reached fails the start
 * elsewhere.
 */
export function watchLink(o: WatchdogOptions): LinkWatchdog {
  const everyMs = o.everyMs ?? 1000
  const misses = o.misses ?? 2
  const listeners = new Set<(up: boolean) => void>()
  let up = true
  let missed = 0
  let client: pg.Client | null = null
  let socket: net.Socket | null = null
  let stopped = false
  let timer: NodeJS.Timeout | null = null
  let running: Promise<void> = Promise.resolve()

  const drop = () => {
    socket?.destroy()
    socket = null
    const c = client
    client = null
    c?.end().catch(() => {})
  }

  async function probe(): Promise<void> {
    let timeout: NodeJS.Timeout | undefined
    const late = new Promise<never>((_, reject) => {
      timeout = setTimeout(() => reject(new Error(`no answer within ${o.timeoutMs} ms`)), o.timeoutMs)
    })
    try {
      const ask = async () => {
        if (!client) {
          const c = new pg.Client({
            connectionString: o.url,
            application_name: 'aed-link-probe',
            stream: () => {
              socket = new net.Socket()
              return socket
            },
          })
          c.on('error', () => {})
          client = c
          await c.connect()
        }
        await client.query('SELECT 1')
      }
      await Promise.race([ask(), late])
    } finally {
      clearTimeout(timeout)
    }
  }

  function set(next: boolean) {
    if (next === up) return
    up = next
    if (!next) o.sockets.severAll()
    for (const fn of listeners) fn(next)
  }

  async function tick() {
    try {
      await probe()
      missed = 0
      set(true)
    } catch {
      drop()
      missed++
      if (missed >= misses) set(false)
    }
  }

  const schedule = () => {
    if (stopped) return
    timer = setTimeout(() => {
      running = tick().finally(schedule)
    }, everyMs)
    timer.unref()
  }
  schedule()

  return {
    up: () => up,
    onChange(fn) {
      listeners.add(fn)
      return () => void listeners.delete(fn)
    },
    async stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      await running.catch(() => {})
      drop()
    },
  }
}
