import type { PGlite } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import pg from 'pg'
import type { Database, DbOrTx } from '../db/client.ts'

/**
 * The event bus: PostgreSQL NOTIFY out, LISTEN in. Every server instance on one database hears
 * every event; on PGlite (one process) the same SQL is delivered in process. Payloads are small
 * JSON (ids, not rows): NOTIFY refuses 8000 bytes and more, and a subscriber reads the rows it
 * needs. Delivery is at most once and only to instances listening at the time: a subscriber
 * that must not miss anything re-reads its state when `onReconnect` fires.
 */
export type EventBus = {
  /** Sends now (its own statement, committed at once). */
  publish(channel: string, payload: unknown): Promise<void>
  /**
   * Sends inside a transaction: delivered when it commits, never if it rolls back. PostgreSQL
   * folds identical (channel, payload) pairs of one transaction into one delivery.
   */
  publishIn(tx: DbOrTx, channel: string, payload: unknown): Promise<void>
  /** Resolves once listening: a publish after that reaches the handler. Answers the unsubscribe. */
  subscribe<T = unknown>(channel: string, handler: (payload: T) => void | Promise<void>): Promise<Unsubscribe>
  /** Called after the listening connection dropped and came back: events meanwhile were lost. */
  onReconnect(fn: () => void): () => void
}

export type Unsubscribe = () => Promise<void>

/** Where notifications come in: one callback per channel; the bus fans out to its handlers. */
export type NotificationSource = {
  listen(channel: string, onPayload: (payload: string) => void): Promise<void>
  unlisten(channel: string): Promise<void>
  onReconnect(fn: () => void): () => void
  onError(fn: (err: Error) => void): () => void
  close(): Promise<void>
}

/** NOTIFY takes payloads shorter than 8000 bytes. */
export const MAX_EVENT_PAYLOAD_BYTES = 7999

export class EventPayloadTooLargeError extends Error {
  constructor(
    readonly channel: string,
    readonly bytes: number,
  ) {
    super(
      `Event on "${channel}" is ${bytes} bytes of JSON; PostgreSQL NOTIFY takes at most ` +
        `${MAX_EVENT_PAYLOAD_BYTES}. Publish ids and let subscribers read the rows.`,
    )
    this.name = 'EventPayloadTooLargeError'
  }
}

const CHANNEL = /^[a-z_][a-z0-9_]{0,62}$/

function checkChannel(channel: string) {
  if (!CHANNEL.test(channel)) {
    throw new Error(`Event channel "${channel}" must be lower-case letters, digits and _ (at most 63)`)
  }
}

/** The NOTIFY payload of an event, or a clear error when it cannot be one. */
export function encodeEvent(channel: string, payload: unknown): string {
  checkChannel(channel)
  const text = JSON.stringify(payload)
  if (text === undefined) throw new TypeError(`Event on "${channel}": the payload is not JSON`)
  const bytes = Buffer.byteLength(text, 'utf8')
  if (bytes > MAX_EVENT_PAYLOAD_BYTES) throw new EventPayloadTooLargeError(channel, bytes)
  return text
}

type Log = Pick<FastifyBaseLogger, 'warn' | 'error'>
type Handler = (payload: unknown) => void | Promise<void>

/** The bus over a database's notification source. */
export function createEventBus(database: Database, log: Log): EventBus {
  const source = database.notifications
  const channels = new Map<string, { handlers: Set<Handler>; ready: Promise<void> }>()

  source.onError((err) =>
    log.warn({ err: { message: err.message } }, 'event listener connection failed; reconnecting'),
  )

  function failed(channel: string, err: unknown) {
    log.error({ channel, err: { message: (err as Error)?.message ?? String(err) } }, 'event handler failed')
  }

  function dispatch(channel: string, raw: string) {
    const entry = channels.get(channel)
    if (!entry) return
    let value: unknown
    try {
      value = JSON.parse(raw)
    } catch {
      log.warn({ channel }, 'event payload is not JSON; ignored')
      return
    }
    for (const handler of [...entry.handlers]) {
      try {
        const r = handler(value)
        if (r && typeof r.then === 'function') r.then(undefined, (e) => failed(channel, e))
      } catch (e) {
        failed(channel, e)
      }
    }
  }

  async function publishIn(tx: DbOrTx, channel: string, payload: unknown) {
    const text = encodeEvent(channel, payload)
    await tx.execute(sql`SELECT pg_notify(${channel}, ${text})`)
  }

  return {
    publishIn,
    publish: (channel, payload) => publishIn(database.db, channel, payload),
    async subscribe<T>(channel: string, handler: (payload: T) => void | Promise<void>) {
      checkChannel(channel)
      const h = handler as Handler
      let entry = channels.get(channel)
      if (!entry) {
        const created = {
          handlers: new Set<Handler>(),
          ready: source.listen(channel, (raw) => dispatch(channel, raw)),
        }
        created.ready.catch(() => {
          if (channels.get(channel) === created) channels.delete(channel)
        })
        channels.set(channel, created)
        entry = created
      }
      const mine = entry
      mine.handlers.add(h)
      try {
        await mine.ready
      } catch (e) {
        mine.handlers.delete(h)
        throw e
      }
      let done = false
      return async () => {
        if (done) return
        done = true
        mine.handlers.delete(h)
        if (mine.handlers.size === 0 && channels.get(channel) === mine) {
          channels.delete(channel)
          await source.unlisten(channel)
        }
      }
    },
    onReconnect: (fn) => source.onReconnect(fn),
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
export function pgNotifications(url: string): NotificationSource {
  return new PgNotifications(url)
}

class PgNotifications implements NotificationSource {
  readonly #url: string
  #client: pg.Client | null = null
  #opening: Promise<pg.Client> | null = null
  readonly #channels = new Map<string, (payload: string) => void>()
  readonly #reconnected = new Set<() => void>()
  readonly #errors = new Set<(err: Error) => void>()
  #timer: NodeJS.Timeout | null = null
  #delay = 0
  #closed = false

  constructor(url: string) {
    this.#url = url
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
    const c = new pg.Client({ connectionString: this.#url, application_name: 'aed-events', keepAlive: true })
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
