import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'

// A webhook receiver for trying the push side of the open API (docs/open-api.md): it checks
// each delivery's Standard Webhooks signature with the configuration's webhook secret
// (whsec_…), prints one line per delivery and answers 204, or 401 when the signature fails.
// `failWith` answers another status instead, to watch the server retry.

/** Bodies beyond this are refused unread (deliveries are small JSON). */
const BODY_LIMIT = 1024 * 1024

export type ReceiverOptions = {
  port: number
  host?: string
  /** The webhook secret (whsec_…); without one, nothing is verified and every delivery is taken. */
  secret?: string
  /** Answer this HTTP status to verified deliveries instead of 204. */
  failWith?: number
  /** Seconds for Retry-After when failing with 429 or 503. */
  retryAfter?: number
  /** Where each delivery's line goes. */
  log: (line: string) => void
  now?: () => Date
}

export type Delivery = {
  time: string
  id: string
  type: string
  /** yes, no (the signature failed: why), or skipped (no secret). */
  verified: 'yes' | 'no' | 'skipped'
  error?: string
  status: number
  summary: string
}

const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : null)

/** A few words on what a delivery is about: the device, cabinet, kind, code, state and review outcome it names. */
export function summarize(payload: unknown): string {
  if (!payload || typeof payload !== 'object') return ''
  const data = (payload as { data?: unknown }).data
  if (!data || typeof data !== 'object') return ''
  const d = data as Record<string, unknown>
  const aed = d.aed && typeof d.aed === 'object' ? (d.aed as Record<string, unknown>) : d
  const parts = [
    ['sn', str(aed.sn ?? d.sn)],
    ['cabinet', str(d.cabinet_sn)],
    ['kind', str(d.kind)],
    ['code', str(d.code) || null],
    ['state', str(d.state)],
    ['readiness', str(aed.readiness)],
    ['status', str(aed.status)],
    ['audit_status', str(d.audit_status)],
    ['id', str(d.id)],
    ['message', str(d.message)],
  ] as const
  return parts
    .filter(([, v]) => v !== null)
    .map(([k, v]) => `${k}=${v}`)
    .join(' ')
}

/** One delivery as its line: time, webhook-id, type, verified, the answer's status, a summary. */
export function formatDelivery(d: Delivery): string {
  const verified = d.verified === 'no' ? `verified=no (${d.error})` : `verified=${d.verified}`
  return [d.time, d.id || '-', d.type || '-', verified, `→ ${d.status}`, d.summary].filter(Boolean).join('  ')
}

function headerValues(req: http.IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
    const v = req.headers[name]
    if (typeof v === 'string') out[name] = v
  }
  return out
}

async function readBody(req: http.IncomingMessage): Promise<Buffer | null> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req) {
    size += (chunk as Buffer).length
    if (size > BODY_LIMIT) return null
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}

/** What the receiver makes of one delivery (its body and headers), and the status it answers. */
export function judge(
  body: Buffer,
  headers: Record<string, string>,
  o: Pick<ReceiverOptions, 'secret' | 'failWith'>,
  now: Date,
): Delivery {
  let payload: unknown = null
  let verified: Delivery['verified'] = 'skipped'
  let error: string | undefined
  if (o.secret) {
    try {
      payload = new Webhook(o.secret).verify(body, headers)
      verified = 'yes'
    } catch (e) {
      verified = 'no'
      error = e instanceof Error ? e.message : String(e)
    }
  }
  if (verified !== 'yes') {
    try {
      payload = JSON.parse(body.toString('utf8'))
    } catch {}
  }
  const type = payload && typeof payload === 'object' ? str((payload as { type?: unknown }).type) : null
  return {
    time: now.toISOString(),
    id: headers['webhook-id'] ?? '',
    type: type ?? '',
    verified,
    error,
    status: verified === 'no' ? 401 : (o.failWith ?? 204),
    summary: summarize(payload),
  }
}

/** Starts the receiver; resolves once it listens, with the port it got (for port 0). */
export async function startReceiver(o: ReceiverOptions): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end()
      return
    }
    readBody(req).then(
      (body) => {
        if (!body) {
          res.writeHead(413).end()
          return
        }
        const d = judge(body, headerValues(req), o, o.now?.() ?? new Date())
        o.log(formatDelivery(d))
        const headers: Record<string, string> = {}
        if ((d.status === 429 || d.status === 503) && o.retryAfter !== undefined) {
          headers['retry-after'] = String(o.retryAfter)
        }
        res.writeHead(d.status, headers).end()
      },
      () => res.writeHead(400).end(),
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(o.port, o.host ?? '0.0.0.0', () => resolve())
  })
  return { server, port: (server.address() as AddressInfo).port }
}
