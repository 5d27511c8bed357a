// `npm run bench:webhooks`: webhook delivery under load, in process, against a receiver on
// 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE=1).
//
//   load: BENCH_RATE events a second (default 1,000) for BENCH_SECONDS (default 30) are committed
//     as the engine commits them (a `webhook` outbox row each, in transactions of 10 every 10 ms,
//     then the drain after the commit, as the engine asks for it); the server's own sender loop
//     (startWebhookSender) sends them to one endpoint, a receiver in a process of its own. The lag
//     is from each event's commit to the receiver's arrival, for every event, after a warm-up of
//     BENCH_WARMUP seconds at the same rate (delivered, not counted); the run waits until all have
//     arrived.
//   outage: the receiver answers 503 while BENCH_DOWN_EVENTS events (default 20,000) come in over
//     ten minutes on a test clock (the fan-out and the sender's retries run as the clock moves:
//     5 s, 5 min, 30 min after the failures), then it is back: everything must arrive, once, in
//     order, and the backlog's drain is timed (real time).
//
// BENCH_DATABASE_URL=postgres://... for PostgreSQL (a fresh database is created in it and dropped),
// else PGlite.
import { spawn } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { openPglite, openPostgres } from '../../db/client.ts'
import { many, one } from '../../db/sql.ts'
import { TestClock } from '../../lib/clock.ts'
import { type WebhookOutboxPayload, webhookRowForRescueEnd } from '../../lib/webhook-rows.ts'
import { insertOutbox, type OutboxRow } from '../../modules/engine/engine.port.ts'
import { drainOutbox, kickIfTold, noteTold } from '../../modules/engine/outbox.ts'
import { deliverDue, startWebhookSender } from '../../modules/webhook/webhook.sender.ts'
import { startReceiver } from '../../test/webhook-receiver.ts'
import { benchContext, createDatabase, dropDatabase } from './harness/database.ts'
import { envNumber, parseOptions } from './harness/options.ts'
import { runBench, sleep } from './harness/servers.ts'
import { ascending, percentile } from './harness/stats.ts'

parseOptions(
  {},
  `npm run bench:webhooks (settings in the environment)
  BENCH_DATABASE_URL=U   a PostgreSQL server to create the bench database in (dropped at the end);
                         default an embedded database in a scratch folder
  BENCH_RATE=R           events a second committed in the load run (default 1000)
  BENCH_SECONDS=S        length of the load run (default 30), after BENCH_WARMUP s (default 10) not counted
  BENCH_DOWN_EVENTS=N    events while the receiver is down ten (test-clock) minutes (default 20000)
  BENCH_RECEIVER=inline  the load run's receiver in the bench's process (default: a process of its own)
  BENCH_ONLY=PARTS       load, outage (comma-separated)`,
)

const RATE = envNumber('BENCH_RATE', 1000)
const SECONDS = envNumber('BENCH_SECONDS', 30)
const DOWN_EVENTS = envNumber('BENCH_DOWN_EVENTS', 20_000)
const WARMUP = envNumber('BENCH_WARMUP', 10)
/** The load run's receiver in this process (BENCH_RECEIVER=inline) rather than one of its own. */
const INLINE = process.env.BENCH_RECEIVER === 'inline'
const ONLY = process.env.BENCH_ONLY?.split(',').map((p) => p.trim())
const runs = (part: 'load' | 'outage') => !ONLY || ONLY.includes(part)

async function open() {
  const url = process.env.BENCH_DATABASE_URL
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-webhooks-'))
  if (!url) return { database: await openPglite(dataDir), dataDir, label: 'PGlite', drop: async () => {} }
  const name = `bench_webhooks_${Date.now()}`
  const database = await openPostgres(await createDatabase(url, name))
  return { database, dataDir, label: 'PostgreSQL', drop: () => dropDatabase(url, name) }
}

type Target = { rescueId: number; deviceId: number; sn: string; agencyId: number; indexLink: string }

/**
 * Rescues to be the events' objects (one ended rescue per installed AED: the fan-out reads each
 * as the open API would), and one endpoint at the system organisation for the whole network.
 */
async function prepare(ctx: AppContext, pushUrl: string) {
  await ctx.db.execute(sql`
    INSERT INTO rescue_events (device_id, installation_id, agency_id, index_link, rescue_event_id, event_time, ended_at,
      event_lat, event_lon, event_location)
    SELECT d.id, i.id, i.agency_id, a.index_link, 'bench-' || d.id, now() - interval '1 hour', now(), i.lat, i.lon, i.location
    FROM devices d JOIN installations i ON i.id = d.installation_id JOIN agencies a ON a.id = i.agency_id
    WHERE d.deleted_at IS NULL AND i.removed_at IS NULL`)
  const targets = await many<Target>(
    ctx.db,
    sql`SELECT r.id AS "rescueId", r.device_id AS "deviceId", d.device_sn AS sn, r.agency_id AS "agencyId",
          r.index_link AS "indexLink"
        FROM rescue_events r JOIN devices d ON d.id = r.device_id WHERE r.rescue_event_id LIKE 'bench-%'`,
  )
  const root = await one<{ id: number }>(
    ctx.db,
    sql`SELECT id FROM agencies WHERE agency_type = 0 ORDER BY id LIMIT 1`,
  )
  const cfg = await one<{ id: number }>(
    ctx.db,
    sql`INSERT INTO app_service_configs (agency_id, service, state, secret, access_token, push_url, push_secret)
        VALUES (${root!.id}, '["event_push"]'::jsonb, 1, ${crypto.randomBytes(24).toString('hex')},
          ${crypto.randomBytes(36).toString('base64url')}, ${pushUrl}, ${`whsec_${crypto.randomBytes(24).toString('base64')}`})
        RETURNING id`,
  )
  return { targets, configId: cfg!.id }
}

let seq = 0
/** The outbox rows of `n` events: rescues that ended (the row the engine writes: lib/webhook-rows.ts). */
function rows(targets: Target[], n: number, run: string): OutboxRow[] {
  return Array.from({ length: n }, () => {
    const t = targets[seq++ % targets.length]
    const [, , payload] = webhookRowForRescueEnd(t.rescueId, { id: t.deviceId, device_sn: t.sn })
    return {
      topic: 'webhook',
      key: `webhook:bench:${run}:${seq}`,
      agencyId: t.agencyId,
      indexLink: t.indexLink,
      payload: payload as WebhookOutboxPayload,
    }
  })
}

/** Commits RATE events a second for `seconds`; answers each key's commit time (ms, real). */
async function load(ctx: AppContext, targets: Target[], seconds: number, run: string) {
  const committed = new Map<string, number>()
  const per = 10
  const start = performance.now()
  let made = 0
  while (performance.now() - start < seconds * 1000) {
    const due = Math.floor(((performance.now() - start) / 1000) * RATE)
    while (made + per <= due) {
      const batch = rows(targets, per, run)
      await ctx.db.transaction(async (tx) => {
        await insertOutbox(tx, batch, ctx.clock.now())
        noteTold(ctx, 'later')
      })
      const at = Date.now()
      for (const r of batch) committed.set(r.key, at)
      kickIfTold(ctx)
      made += per
    }
    await sleep(5)
  }
  return committed
}

/** What the receiver process answers: each request's webhook-id and when it arrived (ms, real). */
type Arrival = { id: string; at: number }

/**
 * A receiver in a process of its own, as an integrator's would be (it does not share the
 * sender's event loop): answers 204 to every POST and reports the arrivals every 50 ms.
 */
async function receiverProcess() {
  const code = `
    const http = require('node:http')
    let batch = []
    const server = http.createServer((req, res) => {
      req.resume()
      req.on('end', () => {
        batch.push({ id: String(req.headers['webhook-id']), at: Date.now() })
        res.writeHead(204).end()
      })
    })
    setInterval(() => { if (batch.length) { process.send(batch); batch = [] } }, 50)
    server.listen(0, '127.0.0.1', () => process.send({ port: server.address().port }))
    process.on('message', () => process.exit(0))`
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] })
  const got: Arrival[] = []
  const port = await new Promise<number>((resolve) => {
    child.on('message', (m: { port?: number } | Arrival[]) => {
      if (Array.isArray(m)) got.push(...m)
      else if (m.port) resolve(m.port)
    })
  })
  return {
    url: (p: string) => `http://127.0.0.1:${port}${p}`,
    got,
    close: async () => {
      child.send('stop')
    },
  }
}

async function loadRun(ctx: AppContext, targets: Target[], configId: number) {
  const rx = INLINE ? await startReceiver() : await receiverProcess()
  await ctx.db.execute(
    sql`UPDATE app_service_configs SET push_url = ${rx.url('/load')} WHERE id = ${configId}`,
  )
  const sender = startWebhookSender(ctx)
  // A warm-up at the same rate (the first connection, compiled code, the database's caches),
  // delivered and left out of the figures.
  const warm = await load(ctx, targets, WARMUP, 'warm')
  const warmUntil = Date.now() + 120_000
  while (rx.got.length < warm.size && Date.now() < warmUntil) await sleep(100)
  rx.got.length = 0
  const t0 = performance.now()
  const committed = await load(ctx, targets, SECONDS, 'load')
  const offered = committed.size
  // Everything committed must arrive; wait (bounded) for the tail.
  const until = Date.now() + 120_000
  while (rx.got.length < offered && Date.now() < until) await sleep(100)
  const took = (performance.now() - t0) / 1000
  await sender.stop()
  // Each delivery's event, and when the fan-out wrote it (next_at: due at once, on the real clock).
  const rowsOf = await many<{ id: number; event_key: string; next_at: Date }>(
    ctx.db,
    sql`SELECT id, event_key, next_at FROM webhook_deliveries WHERE config_id = ${configId} AND event_key LIKE 'webhook:bench:load:%'`,
  )
  const keys = new Map(rowsOf.map((d) => [`msg_${d.id}`, d.event_key]))
  const fannedOut = new Map(rowsOf.map((d) => [`msg_${d.id}`, d.next_at.getTime()]))
  const got = rx.got
  const lags = ascending(got.map((r) => r.at - (committed.get(keys.get(r.id) ?? '') ?? Number.NaN)))
  const toFanOut = ascending(
    got.map((r) => (fannedOut.get(r.id) ?? Number.NaN) - (committed.get(keys.get(r.id) ?? '') ?? Number.NaN)),
  )
  const toSend = ascending(got.map((r) => r.at - (fannedOut.get(r.id) ?? Number.NaN)))
  const ids = got.map((r) => Number(r.id.slice(4)))
  const inOrder = ids.every((id, i) => i === 0 || id > ids[i - 1])
  console.log(
    `load     ${offered} events at ${RATE}/s for ${SECONDS} s: ${got.length} arrived (${new Set(ids).size} distinct), in order: ${inOrder}; ` +
      `${(got.length / took).toFixed(0)} /s over the run; lag commit → arrival p50 ${percentile(lags, 50).toFixed(0)} ms, ` +
      `p99 ${percentile(lags, 99).toFixed(0)} ms, max ${lags.at(-1)?.toFixed(0)} ms ` +
      `(commit → fan-out p50 ${percentile(toFanOut, 50).toFixed(0)} / p99 ${percentile(toFanOut, 99).toFixed(0)} ms; ` +
      `fan-out → arrival p50 ${percentile(toSend, 50).toFixed(0)} / p99 ${percentile(toSend, 99).toFixed(0)} ms)`,
  )
  await rx.close()
}

async function outageRun(ctx: AppContext, targets: Target[], configId: number) {
  const rx = await startReceiver()
  await ctx.db.execute(
    sql`UPDATE app_service_configs SET push_url = ${rx.url('/down')} WHERE id = ${configId}`,
  )
  const clock = new TestClock(new Date())
  ctx.clock = clock
  ctx.drainOnCommit = false
  let down = true
  rx.answer('/down', () => ({ status: down ? 503 : 200 }))
  // Ten minutes in steps of 5 s: the events of each step committed and fanned out, and the
  // sender's pass as its loop would run it.
  const steps = 120
  const perStep = Math.ceil(DOWN_EVENTS / steps)
  let offered = 0
  for (let s = 0; s < steps; s++) {
    const batch = rows(targets, perStep, 'down')
    await ctx.db.transaction((tx) => insertOutbox(tx, batch, clock.now()))
    offered += batch.length
    while ((await drainOutbox(ctx)) === 200) {}
    await deliverDue(ctx)
    clock.advance(5_000)
  }
  const tried = rx.of('/down').length
  down = false
  // Back: the next try of the endpoint's first delivery is at most 30 min (+20 %) after its failure.
  clock.advance(36 * 60_000)
  const t0 = performance.now()
  while ((await deliverDue(ctx)).sent > 0) {}
  const took = (performance.now() - t0) / 1000
  const ok = rx.of('/down').slice(tried)
  const ids = ok.map((r) => Number(r.id.slice(4)))
  const pending = await one<{ n: number }>(
    ctx.db,
    sql`SELECT count(*) AS n FROM webhook_deliveries WHERE config_id = ${configId} AND state <> 'delivered'`,
  )
  console.log(
    `outage   ${offered} events while down 10 min (test clock; ${tried} failed tries): after it came back ${ok.length} arrived ` +
      `(${new Set(ids).size} distinct), in order: ${ids.every((id, i) => i === 0 || id > ids[i - 1])}, not delivered: ${pending?.n}; ` +
      `backlog sent in ${took.toFixed(1)} s (${(ok.length / took).toFixed(0)} /s)`,
  )
  await rx.close()
}

async function main() {
  const { database, dataDir, label, drop } = await open()
  const ctx = await benchContext(
    database,
    { DATA_DIR: dataDir, SEED_DEMO: 'true', SEED_HISTORY: 'false', WEBHOOK_ALLOW_PRIVATE: '1' },
    'warn',
  )
  const { targets, configId } = await prepare(ctx, 'http://127.0.0.1:9/unset')
  console.log(`${label}: ${targets.length} rescues as the events' objects, one endpoint`)
  if (runs('load')) await loadRun(ctx, targets, configId)
  if (runs('outage')) await outageRun(ctx, targets, configId)
  await database.close()
  await drop()
  fs.rmSync(dataDir, { recursive: true, force: true })
}

runBench(main, { exit: true })
