import { sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { Database, DbOrTx } from './client.ts'
import { checkChannel } from './notifications.ts'

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
