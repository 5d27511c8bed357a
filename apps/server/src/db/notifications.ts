import type { Duplex } from 'node:stream'
import type { PGlite } from '@electric-sql/pglite'
import pg from 'pg'

/**
 * The LISTEN side of the event bus (db/events.ts): where a database's notifications come in.
 * The database client opens one with its connection; the bus subscribes through it.
 */

/** Where notifications come in: one callback per channel; the bus fans out to its handlers. */
export type NotificationSource = {
  listen(channel: string, onPayload: (payload: string) => void): Promise<void>
  unlisten(channel: string): Promise<void>
  onReconnect(fn: () => void): () => void
  onError(fn: (err: Error) => void): () => void
  close(): Promise<void>
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/

/** A channel name NOTIFY and LISTEN take unquoted: lower-case letters, digits and _, at most 63. */
export function checkChannel(channel: string) {
  if (!CHANNEL.test(channel)) {
    throw new Error(`Event channel "${channel}" must be lower-case letters, digits and _ (at most 63)`)
  }
}

/** PGlite: its own listen/unlisten, in process; nothing to reconnect. */
export function pgliteNotifications(client: PGlite): NotificationSource {
  const stops = new Map<string, () => Promise<void>>()
  return {
    async listen(channel, onPayload) {
      checkChannel(channel)
      await stops.get(channel)?.()
      stops.set(channel, await client.listen(channel, onPayload))
    },
    async unlisten(channel) {
      const stop = stops.get(channel)
      stops.delete(channel)
      await stop?.()
    },
    onReconnect: () => () => {},
    onError: () => () => {},
    async close() {
      stops.clear()
    },
  }
}

const MAX_RETRY_MS = 5_000

/**
 * PostgreSQL: LISTEN on one dedicated client outside the pool (a pooled client would be handed
 * to other work and its LISTENs lost). Opened on the first listen; when it drops, it is
 * reopened with a growing delay, every channel is listened again and `onReconnect` fires.
 */
export function pgNotifications(url: string, stream?: () => Duplex): NotificationSource {
  return new PgNotifications(url, stream)
}

class PgNotifications implements NotificationSource {
  readonly #url: string
  readonly #stream: (() => Duplex) | undefined
  #client: pg.Client | null = null
  #opening: Promise<pg.Client> | null = null
  readonly #channels = new Map<string, (payload: string) => void>()
  readonly #reconnected = new Set<() => void>()
  readonly #errors = new Set<(err: Error) => void>()
  #timer: NodeJS.Timeout | null = null
  #delay = 0
  #closed = false

  constructor(url: string, stream?: () => Duplex) {
    this.#url = url
    this.#stream = stream
  }

  async listen(channel: string, onPayload: (payload: string) => void) {
    checkChannel(channel)
    this.#channels.set(channel, onPayload)
    try {
      const c = await this.#connect()
      await c.query(`LISTEN "${channel}"`)
    } catch (e) {
      if (this.#channels.get(channel) === onPayload) this.#channels.delete(channel)
      throw e
    }
  }

  async unlisten(channel: string) {
    this.#channels.delete(channel)
    // A failure means the connection is gone, and its LISTENs with it.
    await this.#client?.query(`UNLISTEN "${channel}"`).catch(() => {})
  }

  onReconnect(fn: () => void) {
    this.#reconnected.add(fn)
    return () => void this.#reconnected.delete(fn)
  }

  onError(fn: (err: Error) => void) {
    this.#errors.add(fn)
    return () => void this.#errors.delete(fn)
  }

  async close() {
    this.#closed = true
    if (this.#timer) clearTimeout(this.#timer)
    this.#timer = null
    const c = this.#client ?? (await this.#opening?.catch(() => null)) ?? null
    this.#client = null
    await c?.end().catch(() => {})
  }

  #connect(): Promise<pg.Client> {
    if (this.#closed) return Promise.reject(new Error('The event listener is closed'))
    if (this.#client) return Promise.resolve(this.#client)
    this.#opening ??= this.#open().finally(() => {
      this.#opening = null
    })
    return this.#opening
  }

  async #open(): Promise<pg.Client> {
    const c = new pg.Client({
      connectionString: this.#url,
      application_name: 'aed-events',
      keepAlive: true,
      ...(this.#stream ? { stream: this.#stream } : {}),
    })
    c.on('notification', (n) => this.#channels.get(n.channel)?.(n.payload ?? ''))
    // Without an error listener a dropped connection would crash the process.
    c.on('error', (e) => this.#emitError(e))
    c.on('end', () => this.#dropped(c))
    try {
      await c.connect()
      for (const channel of this.#channels.keys()) await c.query(`LISTEN "${channel}"`)
    } catch (e) {
      await c.end().catch(() => {})
      throw e
    }
    if (this.#closed) {
      await c.end().catch(() => {})
      throw new Error('The event listener is closed')
    }
    this.#client = c
    return c
  }

  #dropped(c: pg.Client) {
    if (c !== this.#client) return
    this.#client = null
    if (!this.#closed && this.#channels.size > 0) this.#retry()
  }

  #retry() {
    if (this.#timer || this.#closed) return
    this.#delay = Math.min(Math.max(this.#delay * 2, 100), MAX_RETRY_MS)
    this.#timer = setTimeout(() => {
      this.#timer = null
      this.#connect().then(
        () => {
          this.#delay = 0
          for (const fn of this.#reconnected) {
            try {
              fn()
            } catch (e) {
              this.#emitError(e as Error)
            }
          }
        },
        (e: Error) => {
          this.#emitError(e)
          this.#retry()
        },
      )
    }, this.#delay)
    this.#timer.unref()
  }

  #emitError(e: Error) {
    for (const fn of this.#errors) fn(e)
  }
}
