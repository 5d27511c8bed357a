import type { Lang } from '@aed/contracts'
import { LIVE_REPLAY_MS, LiveClose, LiveType } from '@aed/contracts/live'
import type { WebSocket } from 'ws'
import type { AppContext } from '../../context.ts'
import type { DbOrTx } from '../../db/client.ts'
import type { Unsubscribe } from '../../db/events.ts'
import { AppError } from '../../lib/errors.ts'
import { authenticateMember } from '../../plugins/auth/member.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { findPush, newestPushId, pushesAfter, type StoredPush } from './live.repository.ts'
import { type EndedSessions, LIVE_PUSH_CHANNEL, LIVE_SESSION_CHANNEL, tokenDigest } from './live.service.ts'

/** The socket under a console's WebSocket, as far as the hub holds its writes back. */
type Wire = { cork(): void; uncork(): void }

/** A signed-in console on this instance. */
type Client = {
  ws: WebSocket
  /** Its TCP socket (null when unknown): frames of one tick leave in one write. */
  wire: Wire | null
  auth: AuthContext
  lang: Lang
  /** The largest push id sent: replays and live pushes never send one twice. */
  lastId: number
  /** Pushes that arrived while the replay ran, sent after it. */
  queue: StoredPush[] | null
  amount: number | null
  alive: boolean
  /** The listener came back while this console was reading the store: read it again after. */
  again: boolean
}

/** A console that reads this slowly is closed; it reconnects with `after` and misses nothing. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024
/** How often sessions are checked again (a disabled organisation, a changed password) and sockets pinged. */
const RECHECK_MS = 30_000
/** Count frames of one burst of message changes go out together. */
const COUNT_DEBOUNCE_MS = 100

/**
 * What the live channel shows of the message centre, handed in by app.ts: the live channel is
 * below the features that push through it and imports none of them.
 */
export type LiveMessages = {
  /** A stored message push as the reader sees it: the same presenter as the fetched message. */
  frame(data: Record<string, unknown>, lang: Lang): unknown
  /** The unconfirmed messages of a scope (frame 12). */
  unconfirmedCount(db: DbOrTx, indexLink: string): Promise<number>
}

/** Everything a push needs to become a frame: the same presenters as the fetched objects. */
function frameData(p: StoredPush, lang: Lang, messages: LiveMessages): unknown {
  if (p.data_type === LiveType.MESSAGE) return messages.frame(p.data, lang)
  return p.data
}

/**
 * The live channel of one server instance: its signed-in consoles, and every push of the
 * cluster (stored, then announced by NOTIFY) sent to those whose scope holds it.
 */
export class LiveHub {
  readonly #ctx: AppContext
  readonly #messages: LiveMessages
  readonly #clients = new Set<Client>()
  #unsubscribe: Unsubscribe | null = null
  #unsubscribeSessions: Unsubscribe | null = null
  #offReconnect: (() => void) | null = null
  #offLink: (() => void) | null = null
  #timer: NodeJS.Timeout | null = null
  #countTimer: NodeJS.Timeout | null = null
  readonly #countScopes = new Set<string>()
  #queue: Promise<void> = Promise.resolve()
  /** Sockets holding this tick's frames; released together on the next turn of the loop. */
  readonly #held = new Set<Wire>()
  /** Frames of pushes sent since the last takeSent (GET /metrics adds them up at scrape). */
  #sent = 0

  constructor(ctx: AppContext, messages: LiveMessages) {
    this.#ctx = ctx
    this.#messages = messages
  }

  /** Listens for the cluster's pushes. */
  async start() {
    this.#unsubscribe = await this.#ctx.events.subscribe<Partial<StoredPush> & { id: number }>(
      LIVE_PUSH_CHANNEL,
      (p) => this.#announced(p),
    )
    this.#unsubscribeSessions = await this.#ctx.events.subscribe<EndedSessions>(LIVE_SESSION_CHANNEL, (e) =>
      this.#endSessions(e),
    )
    // Announcements made while the listening connection was down are lost: replay from the store.
    this.#offReconnect = this.#ctx.events.onReconnect(() => {
      // A console still joining or catching up read the store before this drop: it reads again.
      for (const c of this.#clients) {
        if (c.queue === null) void this.#catchUp(c)
        else c.again = true
      }
    })
    // This instance's database link found down (db/link.ts): its consoles would hear nothing. They
    // are closed with 1013 (try again later), reconnect through the proxy to another
    // instance (new sockets here are refused meanwhile) and ask there for what they missed.
    this.#offLink = this.#ctx.database.link.onChange((up) => {
      if (up) return
      for (const c of this.#clients) c.ws.close(1013, 'database unreachable')
    })
    this.#timer = setInterval(() => void this.#recheck(), RECHECK_MS)
    this.#timer.unref()
  }

  async stop() {
    if (this.#timer) clearInterval(this.#timer)
    if (this.#countTimer) clearTimeout(this.#countTimer)
    this.#offReconnect?.()
    this.#offLink?.()
    await this.#unsubscribe?.()
    await this.#unsubscribeSessions?.()
    for (const c of this.#clients) c.ws.close(1001, 'server stopping')
    this.#clients.clear()
  }

  /** Consoles connected to this instance. */
  get size() {
    return this.#clients.size
  }

  /** The frames of pushes sent (each console's copy counts) since the last call. */
  takeSent() {
    const n = this.#sent
    this.#sent = 0
    return n
  }

  /**
   * Adds a console whose first message was accepted: sends what it missed after `after` (in the
   * last day, in scope), then the pushes that arrived meanwhile, then its unconfirmed count.
   * A console without `after` starts at the newest push.
   */
  async join(
    ws: WebSocket,
    auth: AuthContext,
    lang: Lang,
    after: number | undefined,
    wire: Wire | null = null,
  ) {
    const c: Client = { ws, wire, auth, lang, lastId: 0, queue: [], amount: null, alive: true, again: false }
    this.#clients.add(c)
    ws.on('close', () => this.#clients.delete(c))
    ws.on('pong', () => {
      c.alive = true
    })
    if (after !== undefined) await this.#replay(c, after)
    else c.lastId = await this.#newestId()
    const waiting = c.queue ?? []
    c.queue = null
    for (const p of waiting.sort((a, b) => a.id - b.id)) this.#send(c, p)
    this.#readAgain(c)
    await this.#sendCount(c, true)
  }

  /**
   * The listener dropped and came back while `c` was reading the store: what was committed after
   * that read and announced before the drop was lost to it, so it catches up once more.
   */
  #readAgain(c: Client) {
    if (!c.again) return
    c.again = false
    void this.#catchUp(c)
  }

  #newestId(): Promise<number> {
    return newestPushId(this.#ctx.db)
  }

  /**
   * Replays what a console missed while announcements were lost. Pushes announced meanwhile wait
   * in its queue, as at its join: sent first, a newer one would make it drop the older ones the
   * replay brings (the fault suite saw three alarms lost so when a database link came back). A
   * replay that fails closes the socket: the console reconnects with `after` and asks again.
   */
  async #catchUp(c: Client) {
    c.queue = []
    try {
      await this.#replay(c, c.lastId)
    } catch (e) {
      this.#ctx.log.warn({ err: { message: (e as Error).message } }, 'live replay after a reconnect failed')
      c.ws.close(1013, 'replay failed')
    } finally {
      const waiting = c.queue ?? []
      c.queue = null
      for (const p of waiting.sort((a, b) => a.id - b.id)) this.#send(c, p)
      this.#readAgain(c)
    }
  }

  async #replay(c: Client, after: number) {
    const since = new Date(this.#ctx.clock.now().getTime() - LIVE_REPLAY_MS)
    const missed = await pushesAfter(this.#ctx.db, c.auth.index_link, after, since)
    if (c.lastId < after) c.lastId = after
    for (const p of missed) this.#send(c, p)
  }

  /**
   * Announcements are handled one after another: one that must read its push (too large for a
   * NOTIFY) would otherwise let a later one overtake it, and the earlier would look sent.
   */
  #announced(p: Partial<StoredPush> & { id: number }) {
    this.#queue = this.#queue
      .then(() => this.#deliver(p))
      .catch((e) => this.#ctx.log.warn({ err: { message: (e as Error).message } }, 'live push not delivered'))
  }

  async #deliver(p: Partial<StoredPush> & { id: number }) {
    const push = p.index_link === undefined ? await findPush(this.#ctx.db, p.id) : (p as StoredPush)
    if (!push) return
    const frames = new Map<Lang, string>()
    let touched = false
    for (const c of this.#clients) {
      if (!push.index_link.startsWith(c.auth.index_link)) continue
      if (c.queue) {
        c.queue.push(push)
        continue
      }
      this.#send(c, push, frames)
      touched = true
    }
    if (touched && push.data_type === LiveType.MESSAGE) this.#countSoon(push.index_link)
  }

  #send(c: Client, p: StoredPush, frames = new Map<Lang, string>()) {
    if (p.id <= c.lastId || c.ws.readyState !== c.ws.OPEN) return
    if (c.ws.bufferedAmount > MAX_BUFFERED_BYTES) {
      c.ws.close(1013, 'too slow')
      return
    }
    let frame = frames.get(c.lang)
    if (!frame) {
      frame = JSON.stringify({ id: p.id, data_type: p.data_type, data: frameData(p, c.lang, this.#messages) })
      frames.set(c.lang, frame)
    }
    this.#hold(c)
    c.ws.send(frame)
    this.#sent++
    c.lastId = p.id
  }

  /**
   * Holds a console's writes until the loop turns: the pushes of one commit (a drain's status
   * changes, an alarm with its message and count) reach each socket in one system call instead
   * of one each, which was a quarter of a busy instance's time with a thousand consoles.
   */
  #hold(c: Client) {
    if (!c.wire || this.#held.has(c.wire)) return
    c.wire.cork()
    this.#held.add(c.wire)
    if (this.#held.size > 1) return
    setImmediate(() => {
      for (const w of this.#held) w.uncork()
      this.#held.clear()
    })
  }

  /** Recounts, shortly, for every console whose scope holds `indexLink`. */
  #countSoon(indexLink: string) {
    this.#countScopes.add(indexLink)
    this.#countTimer ??= setTimeout(() => {
      this.#countTimer = null
      const links = [...this.#countScopes]
      this.#countScopes.clear()
      const due = [...this.#clients].filter((c) => links.some((l) => l.startsWith(c.auth.index_link)))
      void this.#countFor(due)
    }, COUNT_DEBOUNCE_MS)
  }

  /** One count per distinct scope, sent to the consoles of that scope when it changed. */
  async #countFor(clients: Client[]) {
    const byScope = new Map<string, Client[]>()
    for (const c of clients) byScope.set(c.auth.index_link, [...(byScope.get(c.auth.index_link) ?? []), c])
    for (const [link, group] of byScope) {
      try {
        const amount = await this.#messages.unconfirmedCount(this.#ctx.db, link)
        for (const c of group) this.#sendAmount(c, amount, false)
      } catch (e) {
        this.#ctx.log.warn(
          { err: { message: (e as Error).message } },
          'unconfirmed count for the live channel failed',
        )
      }
    }
  }

  async #sendCount(c: Client, always: boolean) {
    this.#sendAmount(c, await this.#messages.unconfirmedCount(this.#ctx.db, c.auth.index_link), always)
  }

  #sendAmount(c: Client, amount: number, always: boolean) {
    if ((!always && c.amount === amount) || c.ws.readyState !== c.ws.OPEN) return
    c.amount = amount
    this.#hold(c)
    c.ws.send(JSON.stringify({ id: c.lastId, data_type: LiveType.UNCONFIRMED, data: { amount } }))
  }

  /**
   * Closes, with 4009 and the reason, the sockets of sessions ended while they were open: an
   * account's password changed (all but the token that changed it), an organisation disabled
   * (its members' and those of every organisation below it).
   */
  #endSessions(e: EndedSessions) {
    for (const c of [...this.#clients]) {
      const ended =
        e.reason === 'password_changed'
          ? c.auth.account_id === e.account_id && (!e.keep || tokenDigest(c.auth.token) !== e.keep)
          : c.auth.index_link.startsWith(e.index_link)
      if (!ended) continue
      c.ws.close(LiveClose.REPLACED, e.reason)
      this.#clients.delete(c)
    }
  }

  /** Closes sockets whose session ended unannounced (a membership expired, a lost announcement) and dead ones. */
  async #recheck() {
    for (const c of [...this.#clients]) {
      if (!c.alive) {
        c.ws.terminate()
        this.#clients.delete(c)
        continue
      }
      c.alive = false
      c.ws.ping()
      try {
        await authenticateMember(this.#ctx, c.auth.token)
      } catch (e) {
        // A database hiccup is not the member's fault: only a refused session closes the socket.
        if (!(e instanceof AppError)) continue
        if (e.key === 'AGENCY_DISABLED') c.ws.close(LiveClose.REPLACED, 'agency_disabled')
        else c.ws.close(LiveClose.AUTH_FAILED, 'session ended')
        this.#clients.delete(c)
      }
    }
  }
}
