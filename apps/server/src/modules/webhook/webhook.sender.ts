import dns from 'node:dns'
import http from 'node:http'
import https from 'node:https'
import net from 'node:net'
import { Webhook } from 'standardwebhooks'
import type { AppContext } from '../../context.ts'
import { counter, gauge } from '../../lib/metrics.ts'
import { isPrivateAddress } from '../../lib/net-guard.ts'
import { tellWebhookDisabled } from '../message/message.service.ts'
import { messageId } from './webhook.presenter.ts'
import * as repo from './webhook.repository.ts'

// The sender: outside any transaction, per server instance. It leases the oldest due deliveries
// of endpoints nobody is sending to (a short transaction, SKIP LOCKED on the configurations),
// sends each endpoint's in order over keep-alive HTTP, endpoints in parallel, and records each
// endpoint's results in one statement. A crash leaves leases that expire: the deliveries go
// again, with the same webhook-id (receivers deduplicate by it, as Standard Webhooks says).

/** After failure n, wait the n-th of these (±20 %); after the last, the delivery has failed. */
export const RETRY_DELAYS_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  24 * 3_600_000,
] as const
/** Only a 2xx answered within this is a success. */
export const SEND_TIMEOUT_MS = 15_000
/** An endpoint whose oldest pending delivery has been failing this long is disabled. */
export const FAILING_DISABLE_MS = 24 * 3_600_000
/** Retry-After is honoured up to this. */
export const RETRY_AFTER_MAX_MS = 24 * 3_600_000
/**
 * How long a lease holds. A batch starts no send that could end past it (SEND_TIMEOUT_MS and a
 * margin before), so no instance sends a delivery whose lease has run out.
 */
export const LEASE_MS = 120_000
const LEASE_MARGIN_MS = 10_000
/**
 * Deliveries of one endpoint per lease (at most: the repository looks for a lease among an
 * endpoint's first 500 pending deliveries), and endpoints per lease.
 */
const PER_ENDPOINT = 250
const ENDPOINTS = 100
const USER_AGENT = 'AED-Cloud-Webhooks/1.0 (+https://www.standardwebhooks.com)'
/** What is kept of a failed answer's body in the delivery log. */
const ERROR_KEPT = 300

export const webhooksSent = counter('aed_webhook_deliveries_sent_total', 'Webhook deliveries answered 2xx')
export const webhookAttemptsFailed = counter(
  'aed_webhook_attempts_failed_total',
  'Webhook delivery attempts that failed (each is retried on the schedule, or the delivery fails)',
  {
    labels: ['reason'],
    preset: [{ reason: 'status' }, { reason: 'network' }, { reason: 'timeout' }, { reason: 'refused' }],
  },
)
export const webhookLagSum = counter(
  'aed_webhook_delivery_lag_seconds_total',
  'Sum over delivered webhooks of the time from the event’s commit to the receiver’s 2xx (÷ sent: the mean lag)',
)
export const webhookLag = gauge(
  'aed_webhook_lag_seconds',
  'Age of the oldest due webhook delivery not yet sent (0 when none waits)',
)

/** How much one lease takes: endpoints, and deliveries of each (100 endpoints and 250 deliveries of each unless told). */
export type LeaseSize = { endpoints?: number; perEndpoint?: number }

/** An endpoint leased with its deliveries, in order. */
type Leased = repo.EndpointRow & { deliveries: repo.LeasedRow[] }

/**
 * Leases due deliveries in one short transaction: endpoints whose oldest pending delivery is due
 * and that nobody sends to, and of each its first pending ones up to the first not due.
 */
async function leaseDue(ctx: AppContext, exclude: number[], size: LeaseSize = {}): Promise<Leased[]> {
  const now = ctx.clock.now()
  return ctx.db.transaction(async (tx) => {
    const endpoints = await repo.lockDueEndpoints(tx, now, size.endpoints ?? ENDPOINTS, exclude)
    if (endpoints.length === 0) return []
    const heads = await repo.pendingHeads(
      tx,
      endpoints.map((e) => e.config_id),
      now,
      Math.min(size.perEndpoint ?? PER_ENDPOINT, PER_ENDPOINT),
    )
    const leased: Leased[] = []
    for (const ep of endpoints) {
      const deliveries: repo.LeasedRow[] = []
      for (const d of heads) {
        if (d.config_id !== ep.config_id) continue
        // Strictly in order: one not due yet holds back those after it.
        if (d.next_at.getTime() > now.getTime()) break
        deliveries.push(d)
      }
      if (deliveries.length) leased.push({ ...ep, deliveries })
    }
    await repo.lease(
      tx,
      leased.flatMap((l) => l.deliveries.map((d) => d.id)),
      new Date(now.getTime() + LEASE_MS),
    )
    return leased
  })
}

/** What one attempt got: an HTTP status, or why there was none. */
type Answer = {
  status: number | null
  error: string | null
  reason: 'ok' | 'status' | 'network' | 'timeout' | 'refused'
  retryAfterMs: number | null
  ms: number
}

/** Retry-After as milliseconds from now: seconds or an HTTP date, capped at a day; null when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: Date): number | null {
  if (!value) return null
  const v = value.trim()
  const ms = /^\d+$/.test(v) ? Number(v) * 1000 : Date.parse(v) - now.getTime()
  if (!Number.isFinite(ms)) return null
  return Math.min(RETRY_AFTER_MAX_MS, Math.max(0, ms))
}

/** A refusal of a private address (SSRF guard), told apart from a network failure. */
class PrivateAddressError extends Error {
  code = 'EPRIVATE'
}

/**
 * dns.lookup that refuses loopback and private addresses: checked on the address the socket is
 * about to connect to, so a name that resolved to a public address when the URL was saved and to
 * a private one now is still refused.
 */
function guardedLookup(allowPrivate: boolean): net.LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      const cb = callback as (e: Error | null, a: string | dns.LookupAddress[], f?: number) => void
      if (err) return cb(err, '', 4)
      const list = addresses as dns.LookupAddress[]
      const bad = allowPrivate ? undefined : list.find((a) => isPrivateAddress(a.address))
      if (bad)
        return cb(new PrivateAddressError(`${hostname} resolves to ${bad.address}, a private address`), '', 4)
      if (options.all) return cb(null, list)
      return cb(null, list[0].address, list[0].family)
    })
  }
}

type Agents = { http: http.Agent; https: https.Agent }
const agents = new WeakMap<AppContext, Agents>()

/** This instance's keep-alive agents (one socket per endpoint at a time: its sends are sequential). */
function agentsOf(ctx: AppContext): Agents {
  let a = agents.get(ctx)
  if (!a) {
    const o = { keepAlive: true, maxSockets: 2, maxFreeSockets: 256, timeout: 60_000 }
    a = { http: new http.Agent(o), https: new https.Agent(o) }
    agents.set(ctx, a)
  }
  return a
}

/** Closes this instance's idle keep-alive sockets (the sender stopped). */
export function closeAgents(ctx: AppContext) {
  const a = agents.get(ctx)
  a?.http.destroy()
  a?.https.destroy()
  agents.delete(ctx)
}

/** A push URL parsed once for a batch; null when it is not a URL. */
function parsedUrl(url: string): URL | null {
  try {
    return new URL(url)
  } catch {
    return null
  }
}

/** POSTs a signed body; never follows a redirect; gives up after SEND_TIMEOUT_MS. */
function post(
  ctx: AppContext,
  target: URL | null,
  headers: Record<string, string>,
  body: string,
): Promise<Answer> {
  const started = performance.now()
  const answer = (a: Omit<Answer, 'ms'>): Answer => ({ ...a, ms: Math.round(performance.now() - started) })
  if (!target) {
    return Promise.resolve(
      answer({ status: null, error: 'push URL is not valid', reason: 'refused', retryAfterMs: null }),
    )
  }
  const allowPrivate = ctx.config.WEBHOOK_ALLOW_PRIVATE
  const host = target.hostname.replace(/^\[|\]$/g, '')
  // An address literal is connected to without a lookup: checked here.
  if (!allowPrivate && net.isIP(host) && isPrivateAddress(host)) {
    return Promise.resolve(
      answer({ status: null, error: `${host} is a private address`, reason: 'refused', retryAfterMs: null }),
    )
  }
  const secure = target.protocol === 'https:'
  return new Promise<Answer>((resolve) => {
    let settled = false
    const settle = (a: Omit<Answer, 'ms'>) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(answer(a))
    }
    const req = (secure ? https : http).request(
      target,
      {
        method: 'POST',
        agent: secure ? agentsOf(ctx).https : agentsOf(ctx).http,
        lookup: guardedLookup(allowPrivate),
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (res) => {
        const status = res.statusCode ?? 0
        const chunks: Buffer[] = []
        let kept = 0
        res.on('data', (c: Buffer) => {
          if (kept < ERROR_KEPT) chunks.push(c)
          kept += c.length
        })
        res.on('error', () => {})
        res.on('end', () => {
          if (status >= 200 && status < 300) {
            settle({ status, error: null, reason: 'ok', retryAfterMs: null })
            return
          }
          const text = Buffer.concat(chunks).toString('utf8').slice(0, ERROR_KEPT)
          const error =
            status >= 300 && status < 400
              ? `redirect not followed (${status}${res.headers.location ? ` to ${res.headers.location}` : ''})`
              : `HTTP ${status}${text ? `: ${text}` : ''}`
          const retry =
            status === 429 || status === 503
              ? retryAfterMs(res.headers['retry-after'] as string | undefined, ctx.clock.now())
              : null
          settle({ status, error, reason: 'status', retryAfterMs: retry })
        })
      },
    )
    const timer = setTimeout(() => {
      settle({
        status: null,
        error: `no answer within ${SEND_TIMEOUT_MS / 1000} s`,
        reason: 'timeout',
        retryAfterMs: null,
      })
      req.destroy()
    }, SEND_TIMEOUT_MS)
    req.on('error', (e: NodeJS.ErrnoException) => {
      const refused = e instanceof PrivateAddressError
      settle({
        status: null,
        error: e.message || e.code || 'network error',
        reason: refused ? 'refused' : 'network',
        retryAfterMs: null,
      })
    })
    req.end(body)
  })
}

/** The next attempt's wait after failure `n` (1-based), ±20 %; null: the schedule is over. */
export function retryDelayMs(n: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_MS[n - 1]
  if (base === undefined) return null
  return Math.round(base * (0.8 + 0.4 * random()))
}

/** What one endpoint's batch did. */
export type EndpointOutcome = {
  config_id: number
  sent: number
  failed: number
  disabled: 'gone' | 'failing' | null
}

/**
 * Sends an endpoint's leased deliveries one after another, stopping at the first failure (a later
 * event never goes before an earlier one), or before a send that could outlast the lease; records
 * the results in one transaction, with the endpoint's disabling and its message when an answer
 * disabled it.
 */
async function sendEndpoint(ctx: AppContext, ep: Leased, stopping: () => boolean): Promise<EndpointOutcome> {
  const started = performance.now()
  const wh = new Webhook(ep.push_secret)
  const target = parsedUrl(ep.push_url)
  const results: repo.AttemptResult[] = []
  let disable: { reason: 'gone' | 'failing'; deliveryId: number } | null = null
  let sent = 0
  let failed = 0
  let i = 0
  for (; i < ep.deliveries.length; i++) {
    if (stopping()) break
    if (performance.now() - started + SEND_TIMEOUT_MS + LEASE_MARGIN_MS > LEASE_MS) break
    const d = ep.deliveries[i]
    const id = messageId(d.id)
    const at = ctx.clock.now()
    const body = d.body
    const a = await post(
      ctx,
      target,
      {
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': wh.sign(id, at, body),
      },
      body,
    )
    const done = ctx.clock.now()
    const attempts = d.attempts + 1
    const base = {
      id: d.id,
      attempts,
      last_attempt_at: at.toISOString(),
      last_status: a.status,
      last_duration_ms: a.ms,
    }
    if (a.reason === 'ok') {
      sent++
      webhooksSent.inc(ctx, {})
      webhookLagSum.inc(ctx, {}, Math.max(0, (done.getTime() - d.create_time.getTime()) / 1000))
      results.push({
        ...base,
        state: 'delivered',
        // Left as it was: when it was due (for a first attempt, when the fan-out wrote it).
        next_at: d.next_at.toISOString(),
        first_failed_at: null,
        last_error: null,
        delivered_at: done.toISOString(),
      })
      continue
    }
    failed++
    webhookAttemptsFailed.inc(ctx, { reason: a.reason })
    const firstFailed = d.first_failed_at ?? at
    const failure = {
      ...base,
      first_failed_at: firstFailed.toISOString(),
      last_error: a.error,
      delivered_at: null,
    }
    if (a.status === 410) {
      // Gone: the endpoint is disabled; this delivery waits, first in line, until it is enabled.
      results.push({ ...failure, state: 'pending', next_at: done.toISOString() })
      disable = { reason: 'gone', deliveryId: d.id }
      i++
      break
    }
    // The schedule decides when it is over; Retry-After (at least a second) only when to try next.
    const scheduled = retryDelayMs(attempts)
    const wait =
      scheduled === null ? null : a.retryAfterMs === null ? scheduled : Math.max(1000, a.retryAfterMs)
    results.push({
      ...failure,
      state: wait === null ? 'failed' : 'pending',
      next_at: new Date(done.getTime() + (wait ?? 0)).toISOString(),
    })
    if (done.getTime() - firstFailed.getTime() > FAILING_DISABLE_MS) {
      disable = { reason: 'failing', deliveryId: d.id }
    }
    i++
    break
  }
  const untried = ep.deliveries.slice(i).map((d) => d.id)
  let disabled: EndpointOutcome['disabled'] = null
  await ctx.db.transaction(async (tx) => {
    await repo.recordAttempts(tx, results, untried)
    if (!disable) return
    const now = ctx.clock.now()
    const row = await repo.disableEndpoint(tx, ep.config_id, disable.reason, now)
    if (!row) return
    disabled = disable.reason
    await tellWebhookDisabled(ctx, tx, {
      delivery_id: disable.deliveryId,
      config_id: row.id,
      agency_id: row.agency_id,
      index_link: row.index_link,
      push_url: row.push_url,
      reason: disable.reason,
      time: now,
    })
  })
  if (disabled) {
    ctx.log.warn(
      { config: ep.config_id, reason: disabled, url: ep.push_url },
      'webhook endpoint disabled; its pending deliveries wait until it is enabled again',
    )
  }
  return { config_id: ep.config_id, sent, failed, disabled }
}

/** What deliverDue did. */
export type DeliverySummary = { endpoints: number; sent: number; failed: number; outcomes: EndpointOutcome[] }

/**
 * One pass of the sender: leases what is due, sends it (endpoints in parallel, each in order) and
 * records the results; resolves when every endpoint's batch is recorded. Tests call it instead
 * of the loop; `exclude`: endpoints this instance is sending to already.
 */
export async function deliverDue(
  ctx: AppContext,
  o: { exclude?: number[]; stopping?: () => boolean; size?: LeaseSize } = {},
): Promise<DeliverySummary> {
  const leased = await leaseDue(ctx, o.exclude ?? [], o.size)
  const stopping = o.stopping ?? (() => false)
  const outcomes = await Promise.all(leased.map((ep) => sendEndpoint(ctx, ep, stopping)))
  return summarise(outcomes)
}

function summarise(outcomes: EndpointOutcome[]): DeliverySummary {
  return {
    endpoints: outcomes.length,
    sent: outcomes.reduce((n, o) => n + o.sent, 0),
    failed: outcomes.reduce((n, o) => n + o.failed, 0),
    outcomes,
  }
}

/** Updates the lag gauge: the oldest due delivery still waiting. */
export async function measureLag(ctx: AppContext) {
  const now = ctx.clock.now()
  const oldest = await repo.oldestDue(ctx.db, now)
  webhookLag.set(ctx, {}, oldest ? Math.max(0, (now.getTime() - oldest.getTime()) / 1000) : 0)
}

/** The running sender of one server instance. */
export type WebhookSender = {
  /** Starts no new send; resolves when the batches under way are recorded. */
  stop(): Promise<void>
}

/**
 * Starts this instance's sender loop: every `pollMs` (at once again after a pass that leased
 * something) it leases the due deliveries of endpoints it is not sending to already and starts
 * each endpoint's batch without waiting for the others, so a slow receiver holds back only its
 * own deliveries. Only in the running server (main.ts); tests call deliverDue.
 */
export function startWebhookSender(
  ctx: AppContext,
  o: { pollMs?: number; size?: LeaseSize } = {},
): WebhookSender {
  const pollMs = o.pollMs ?? 100
  const inFlight = new Map<number, Promise<void>>()
  let stopped = false
  let again = false
  // While a pass runs, a finished batch asks for another pass at once; while the loop sleeps, it wakes it.
  let wake: () => void = () => {
    again = true
  }
  let lastLag = 0

  async function pass(): Promise<number> {
    const leased = await leaseDue(ctx, [...inFlight.keys()], o.size)
    for (const ep of leased) {
      const p = sendEndpoint(ctx, ep, () => stopped)
        .then(() => undefined)
        .catch((e: Error) =>
          ctx.log.error(
            { config: ep.config_id, err: { message: e.message } },
            'webhook batch failed; its lease expires',
          ),
        )
        .finally(() => {
          inFlight.delete(ep.config_id)
          // The endpoint may have more waiting: lease again now, not at the next poll.
          wake()
        })
      inFlight.set(ep.config_id, p)
    }
    if (Date.now() - lastLag > 5000) {
      lastLag = Date.now()
      await measureLag(ctx)
    }
    return leased.length
  }

  const loop = (async () => {
    while (!stopped) {
      let leased = 0
      try {
        leased = await pass()
      } catch (e) {
        ctx.log.warn({ err: { message: (e as Error).message } }, 'webhook lease failed; tried again')
      }
      if (stopped) break
      if (again) {
        again = false
        continue
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, leased > 0 ? 20 : pollMs)
        wake = () => {
          clearTimeout(t)
          resolve()
        }
      })
      wake = () => {
        again = true
      }
    }
  })()

  return {
    async stop() {
      stopped = true
      wake()
      await loop
      await Promise.all(inFlight.values())
      closeAgents(ctx)
    },
  }
}
