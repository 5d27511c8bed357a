// `npm run bench:mqtt`: how many device messages a second one server stores from MQTT, through
// the embedded broker (aedes in the server's process, stored in `authorizePublish`) and through
// an external Mosquitto read on the shared subscription by 1 and by CONSUMERS connections (issue
// 29: the consumer must keep up with the embedded broker). The same devices send the same quiet
// heartbeats (every device settled, so each is a stored, coalesced row) from a worker thread, a
// connection per device with a window of QoS 1 messages in flight; the rate is rows in the inbox
// per second after a warm-up. BENCH_DATABASE_URL for PostgreSQL, else PGlite.
import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Worker } from 'node:worker_threads'
import { SHARED_SUBSCRIPTION } from '@aed/contracts/device-protocol'
import { sql } from 'drizzle-orm'
import { connectAsync } from 'mqtt'
import type { AppContext } from '../../../context.ts'
import { openPglite, openPostgres } from '../../../db/client.ts'
import { many, one } from '../../../db/sql.ts'
import { mqttPassword, mqttUsername } from '../../../modules/gateway/mqtt-auth.ts'
import { startEmbeddedBroker } from '../../../modules/gateway/mqtt-broker.ts'
import { CONSUMERS, startExternalGateway } from '../../../modules/gateway/mqtt-external.ts'
import { startMosquitto } from '../../../test/mosquitto.ts'
import { benchContext, createDatabase, dropDatabase } from '../harness/database.ts'
import { atLeast, parseOptions } from '../harness/options.ts'
import { runBench } from '../harness/servers.ts'

const { values: o } = parseOptions(
  {
    devices: { type: 'string', default: '200' },
    window: { type: 'string', default: '4' },
    seconds: { type: 'string', default: '15' },
    consumers: { type: 'string', default: `1,${CONSUMERS}` },
    backlog: { type: 'string', default: '30000' },
  },
  `npm run bench:mqtt -- [--devices N] [--window W] [--seconds S] [--consumers K,...]
  --devices N    device connections (default 200)
  --window W     QoS 1 messages each keeps in flight (default 4)
  --seconds S    length of each run, after a 3 s warm-up (default 15)
  --consumers L  the external runs' consumer connections, in order (default 1,${CONSUMERS})
  --backlog B    messages the external runs drain (default 30000)
  BENCH_DATABASE_URL=postgres://…  PostgreSQL (a scratch database is created and dropped)
  BENCH_INFLIGHT=N  Mosquitto's max_inflight_messages (default 1000, as docs/deploy.md; its own default is 20)`,
)
const DEVICES = atLeast(o.devices, 'devices', 1)
const WINDOW = atLeast(o.window, 'window', 1)
const SECONDS = atLeast(o.seconds, 'seconds', 1)
const RUNS = o.consumers.split(',').map((k) => atLeast(k, 'consumers', 1))
const BACKLOG = atLeast(o.backlog, 'backlog', 1)
const WARM_S = 3

type Device = { id: number; sn: string }

async function devices(ctx: AppContext, secret: string): Promise<Device[]> {
  const [{ id: agencyId }] = await many<{ id: number }>(ctx.db, sql`SELECT min(id) AS id FROM agencies`)
  await ctx.db.execute(sql`
    INSERT INTO devices (device_sn, model, agency_id, secret_enc)
    SELECT 'Q' || lpad(g::text, 8, '0'), 'D100', ${agencyId}, ${ctx.sealer.seal(secret)}
    FROM generate_series(1, ${DEVICES}) g`)
  // Settled as the engine would leave them, so every heartbeat is a quiet one.
  await ctx.db.execute(sql`
    INSERT INTO device_states (device_id, last_boot, last_seq, last_seen_at, next_deadline_at, offline)
    SELECT id, 0, -1, now(), now() + interval '1 day', false FROM devices WHERE device_sn LIKE 'Q%'
    ON CONFLICT (device_id) DO NOTHING`)
  await ctx.db.execute(
    sql`UPDATE devices SET battery = 80, status = 0, readiness = 'ready', readiness_reasons = '{}' WHERE device_sn LIKE 'Q%'`,
  )
  return many<Device>(
    ctx.db,
    sql`SELECT id, device_sn AS sn FROM devices WHERE device_sn LIKE 'Q%' ORDER BY id`,
  )
}

const stored = async (ctx: AppContext) =>
  (
    (await one<{ n: number }>(
      ctx.db,
      sql`SELECT count(*)::int AS n FROM device_inbox WHERE transport = 'mqtt'`,
    )) as { n: number }
  ).n

/** Runs the publishers against `url` and answers stored rows a second after the warm-up. */
async function measure(
  ctx: AppContext,
  url: string,
  list: { sn: string; username?: string; password?: string }[],
  start: number,
) {
  // ts-thread.mjs registers tsx in the worker, then imports `entry`.
  const entry = new URL('./publishers.ts', import.meta.url).href
  const worker = new Worker(new URL('../../../lib/ts-thread.mjs', import.meta.url), {
    workerData: { entry, url, devices: list, window: WINDOW, seconds: WARM_S + SECONDS, start },
  })
  const finished = new Promise<number>((resolve, reject) => {
    worker.on('message', (m: { done?: boolean; acked?: number }) => m.done && resolve(m.acked ?? 0))
    worker.on('error', reject)
  })
  await new Promise<void>((resolve) => worker.once('message', () => resolve()))
  await new Promise((r) => setTimeout(r, WARM_S * 1000))
  const n0 = await stored(ctx)
  const t0 = performance.now()
  await new Promise((r) => setTimeout(r, SECONDS * 1000))
  const n1 = await stored(ctx)
  const rate = (n1 - n0) / ((performance.now() - t0) / 1000)
  const acked = await finished
  await worker.terminate()
  return { rate, acked }
}

/** Publishes BACKLOG heartbeats through the broker from the worker; answers how many it acknowledged. */
async function publish(url: string, list: { sn: string }[], start: number) {
  const entry = new URL('./publishers.ts', import.meta.url).href
  const worker = new Worker(new URL('../../../lib/ts-thread.mjs', import.meta.url), {
    workerData: { entry, url, devices: list, window: WINDOW, count: Math.ceil(BACKLOG / list.length), start },
  })
  return new Promise<number>((resolve, reject) => {
    worker.on('message', (m: { done?: boolean; acked?: number }) => {
      if (m.done) void worker.terminate().then(() => resolve(m.acked ?? 0))
    })
    worker.on('error', reject)
  })
}

async function main() {
  const url = process.env.BENCH_DATABASE_URL
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-bench-mqtt-'))
  const name = `bench_mqtt_${Date.now()}`
  const database = url ? await openPostgres(await createDatabase(url, name)) : await openPglite(dataDir)
  const ctx = await benchContext(database, { DATA_DIR: dataDir, SEED_HISTORY: 'false' })
  const secret = crypto.randomBytes(32).toString('hex')
  const list = await devices(ctx, secret)
  console.log(
    `${url ? 'PostgreSQL' : 'PGlite'}, ${list.length} devices, window ${WINDOW}, ${SECONDS} s a run`,
  )
  const rows: string[] = []
  const report = (label: string, r: { rate: number; acked: number }) => {
    const line = `${label.padEnd(34)} ${r.rate.toFixed(0).padStart(6)} stored/s  (${r.acked} acknowledged to devices)`
    rows.push(line)
    console.log(line)
  }

  const broker = await startEmbeddedBroker(ctx, { port: 0, host: '127.0.0.1' })
  const ts = Date.now()
  const signed = list.map((d) => ({
    sn: d.sn,
    username: mqttUsername(d.sn, ts),
    password: mqttPassword(secret, d.sn, ts),
  }))
  report(
    'embedded broker (aedes)',
    await measure(ctx, `mqtt://127.0.0.1:${broker.ports.mqtt}`, signed, 1_000_000),
  )
  await broker.close()

  // A broker that acknowledges at once lets devices send as fast as they can, which on 2 cores
  // starves the server; so the external runs drain a backlog instead: the consumers' sessions
  // exist, go offline, the devices publish BACKLOG messages (the broker keeps them for the
  // sessions), then the consumers come back and the time until all are stored is the rate.
  const mosquitto = await startMosquitto([
    `max_inflight_messages ${process.env.BENCH_INFLIGHT ?? 1000}`,
    'max_queued_messages 1000000',
  ])
  let start = 2_000_000
  for (const [run, consumers] of RUNS.entries()) {
    const clientId = `bench${run}-${consumers}`
    const open = () =>
      startExternalGateway(ctx, {
        url: mosquitto.url,
        clientId,
        // A group of its own: the sessions of the run before stay in theirs.
        subscription: SHARED_SUBSCRIPTION.replace('$share/aedcloud/', `$share/bench${run}/`),
        consumers,
      })
    const first = open()
    await first.ready
    await first.close()
    const before = await stored(ctx)
    const published = await publish(mosquitto.url, list, start)
    start += 1_000_000
    const t0 = performance.now()
    const gateway = open()
    const deadline = Date.now() + 600_000
    while ((await stored(ctx)) - before < published && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100))
    const n = (await stored(ctx)) - before
    report(`Mosquitto, ${consumers} consumer${consumers > 1 ? 's' : ''}, drain`, {
      rate: n / ((performance.now() - t0) / 1000),
      acked: published,
    })
    await gateway.close()
    // Its sessions end here: left in the table, the next run's instance would adopt them.
    for (const c of gateway.consumers) {
      const cleaner = await connectAsync(mosquitto.url, { clientId: String(c.options.clientId), clean: true })
      await cleaner.endAsync()
    }
    await ctx.db.execute(sql`DELETE FROM mqtt_sessions`)
  }
  await mosquitto.stop()
  await database.close()
  if (url) await dropDatabase(url, name)
  fs.rmSync(dataDir, { recursive: true, force: true })
  console.log(
    `\nload average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
}

runBench(main, { exit: true })
