// `npm run bench:ingest`: the engine's ingest throughput beside the raw insert ceiling of the same
// database, in one run. In process (no HTTP, no MQTT: `npm run simulate` measures those): the
// demo network's registered devices send through `ingest()`, the function both transports call.
//
//   ceiling, state-changing: one single-row INSERT transaction after another (the engine's floor
//     is one transaction per message);
//   ceiling, heartbeats: multi-row INSERTs of 1,000 rows (what the heartbeat batcher writes);
//   engine, state-changing: self-tests alternating pass and fail, so every one opens or closes a
//     fault and moves status, readiness and the outbox;
//   engine, heartbeats: heartbeats that change nothing, from every device at once;
//   engine, mixed: 90% heartbeats, 10% state-changing, and the ack latency (report to commit) at
//     a fixed offered rate.
//
// BENCH_DATABASE_URL=postgres://... for PostgreSQL (a fresh database is created in it), else PGlite.
// BENCH_SECONDS per measurement (default 8); BENCH_RATE the offered rate of the latency run;
// BENCH_ONLY=mixed (or ceiling, changing, heartbeats; comma-separated) runs only those parts.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { type DeviceMessage, parseDeviceMessage } from '@aed/contracts/device-protocol'
import { sql } from 'drizzle-orm'
import type { AppContext } from '../../context.ts'
import { openPglite, openPostgres } from '../../db/client.ts'
import { many } from '../../db/sql.ts'
import { ingest } from '../../modules/engine/engine.service.ts'
import type { DeviceIdentity } from '../../plugins/auth/device.ts'
import { benchContext, createDatabase, dropDatabase } from './harness/database.ts'
import { envNumber, parseOptions } from './harness/options.ts'
import { runBench } from './harness/servers.ts'
import { ascending, percentile } from './harness/stats.ts'

parseOptions(
  {},
  `npm run bench:ingest (settings in the environment)
  BENCH_DATABASE_URL=U   a PostgreSQL server to create the bench database in (dropped at the end);
                         default an embedded database in a scratch folder
  BENCH_SECONDS=S        length of each measurement (default 8)
  BENCH_RATE=R           messages a second offered in the mixed run (default 5000)
  BENCH_DEVICES=N        factory devices made beside the demo's (default 20000)
  BENCH_ONLY=PARTS       only these parts, comma-separated: ceiling, changing, heartbeats, mixed`,
)

const SECONDS = envNumber('BENCH_SECONDS', 8)
const RATE = envNumber('BENCH_RATE', 5000)
/** Devices beside the demo's (factory stock made for the bench; they report like any). */
const DEVICES = envNumber('BENCH_DEVICES', 20_000)
const ONLY = process.env.BENCH_ONLY?.split(',').map((p) => p.trim())
const runs = (part: 'ceiling' | 'changing' | 'heartbeats' | 'mixed') => !ONLY || ONLY.includes(part)

type Sender = DeviceIdentity & { seq: number }

async function open() {
  const url = process.env.BENCH_DATABASE_URL
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-ingest-'))
  if (!url) return { database: await openPglite(dataDir), dataDir, label: 'PGlite', drop: async () => {} }
  const name = `bench_ingest_${Date.now()}`
  const database = await openPostgres(await createDatabase(url, name))
  // The database is the bench's own: dropped at the end, so runs do not pile up on the server.
  return { database, dataDir, label: 'PostgreSQL', drop: () => dropDatabase(url, name) }
}

/** Runs `worker` on `concurrency` loops for the bench's seconds; answers messages per second. */
async function during(concurrency: number, worker: (i: number) => Promise<number>) {
  const until = performance.now() + SECONDS * 1000
  let n = 0
  const t0 = performance.now()
  await Promise.all(
    Array.from({ length: concurrency }, async (_, i) => {
      while (performance.now() < until) {
        const done = await worker(i)
        n += done
      }
    }),
  )
  return n / ((performance.now() - t0) / 1000)
}

/** A device's next message of `type`, parsed as the transports parse it. */
function message(s: Sender, type: string, data: Record<string, unknown>) {
  s.seq++
  // A boot above any the demo history used: these are the devices' newest messages.
  const p = parseDeviceMessage({
    v: 1,
    id: `b${s.seq}`,
    seq: s.seq,
    boot: 1000,
    ts: Date.now(),
    type,
    data,
  })
  if (!p.ok) throw new Error(JSON.stringify(p.problem))
  return { known: true, message: p.message as DeviceMessage }
}

/** The demo network and DEVICES more, every one reporting (a state, online, battery 80%). */
async function senders(ctx: AppContext): Promise<Sender[]> {
  // A network, not a handful: with few devices every heartbeat batch would hold every device's
  // lock and the self-tests would queue behind it, which no real network of thousands does.
  const [{ id: agencyId }] = await many<{ id: number }>(ctx.db, sql`SELECT min(id) AS id FROM agencies`)
  await ctx.db.execute(sql`
    INSERT INTO devices (device_sn, model, agency_id, secret_enc)
    SELECT 'B64' || lpad(g::text, 8, '0'), 'D100', ${agencyId}, 'bench'
    FROM generate_series(1, ${DEVICES}) g`)
  const devices = await many<{ id: number; device_sn: string }>(
    ctx.db,
    sql`SELECT id, device_sn FROM devices WHERE deleted_at IS NULL ORDER BY id`,
  )
  return devices.map((d) => ({ kind: 'aed', id: d.id, sn: d.device_sn, seq: 1_000_000 }))
}

/** Every device has reported, so heartbeats change nothing. */
async function settle(ctx: AppContext) {
  // Set directly, as the engine would have left it, rather than 20,000 first messages one by one.
  await ctx.db.execute(sql`
    INSERT INTO device_states (device_id, last_boot, last_seq, last_seen_at, next_deadline_at, offline)
    SELECT id, 0, -1, now(), now() + interval '1 day', false FROM devices WHERE deleted_at IS NULL
    ON CONFLICT (device_id) DO UPDATE SET offline = false, next_deadline_at = EXCLUDED.next_deadline_at,
      rescue_id = NULL`)
  await ctx.db.execute(sql`UPDATE device_events SET closed_at = now() WHERE closed_at IS NULL`)
  await ctx.db.execute(
    sql`UPDATE devices SET battery = 80, status = 0, readiness = 'ready', readiness_reasons = '{}'`,
  )
}

/** The ceiling: the same database doing nothing but inserts. Answers single-row and bulk rates. */
async function ceiling(ctx: AppContext, concurrency: number) {
  await ctx.db.execute(sql`CREATE TABLE bench_raw (id bigserial PRIMARY KEY, device_id bigint, msg_id text, data jsonb,
    received_at timestamptz DEFAULT now(), UNIQUE (device_id, msg_id))`)
  if (!runs('ceiling')) return { single: Number.NaN, bulk: Number.NaN }
  let k = 0
  const single = await during(concurrency, async () => {
    const i = k++
    await ctx.db.transaction(async (tx) => {
      await tx.execute(
        sql`INSERT INTO bench_raw (device_id, msg_id, data) VALUES (${i % 300}, ${`s${i}`}, ${'{"battery":80}'}::jsonb)`,
      )
    })
    return 1
  })
  const bulk = await during(2, async () => {
    const base = k
    k += 1000
    const values = sql.join(
      Array.from(
        { length: 1000 },
        (_, j) => sql`(${(base + j) % 300}, ${`b${base + j}`}, ${'{"battery":80}'}::jsonb)`,
      ),
      sql`, `,
    )
    await ctx.db.execute(sql`INSERT INTO bench_raw (device_id, msg_id, data) VALUES ${values}`)
    return 1000
  })
  console.log(`ceiling  state-changing (1 row per transaction): ${single.toFixed(0)} /s`)
  console.log(`ceiling  heartbeat-sized (1,000-row inserts):     ${bulk.toFixed(0)} /s`)
  return { single, bulk }
}

/** Self-tests alternating pass and fail; then what they left open is closed. */
async function changing(ctx: AppContext, all: Sender[], concurrency: number, ceilingRate: number) {
  let fail = 0
  const touched = new Set<Sender>()
  const rate = await during(concurrency, async (i) => {
    const s = all[(i * 37 + fail++) % all.length]
    touched.add(s)
    const bad = s.seq % 2 === 0
    await ingest(
      ctx,
      s,
      [
        message(s, 'selftest', {
          report_type: 1,
          result: bad ? 'fail' : 'pass',
          fault_codes: bad ? ['E02'] : [],
        }),
      ],
      'https',
    )
    return 1
  })
  console.log(
    `engine   state-changing (self-tests):            ${rate.toFixed(0)} /s  (${((100 * rate) / ceilingRate).toFixed(0)}% of the ceiling)`,
  )
  // Close what the self-tests left open so heartbeats are quiet again.
  for (const s of touched)
    await ingest(ctx, s, [message(s, 'selftest', { report_type: 1, result: 'pass' })], 'https')
}

/** Heartbeats that change nothing, 300 at a time. */
async function heartbeats(ctx: AppContext, all: Sender[], ceilingRate: number) {
  let r = 0
  const beats = await during(300, async () => {
    const s = all[r++ % all.length]
    await ingest(ctx, s, [message(s, 'heartbeat', { battery: 80, rssi: -70 })], 'mqtt')
    return 1
  })
  console.log(
    `engine   heartbeats (change nothing):             ${beats.toFixed(0)} /s  (${((100 * beats) / ceilingRate).toFixed(0)}% of the ceiling)`,
  )
}

/** Mixed load at an offered rate: 90% heartbeats, 10% self-tests; latency per message. */
async function mixed(ctx: AppContext, all: Sender[]) {
  const lat: number[] = []
  const interval = 1000 / RATE
  const start = performance.now()
  const until = start + SECONDS * 1000
  let sent = 0
  const inflight = new Set<Promise<void>>()
  while (performance.now() < until) {
    const due = Math.floor((performance.now() - start) / interval)
    while (sent < due && inflight.size < 20_000) {
      const s = all[sent % all.length]
      const m =
        sent % 10 === 9
          ? message(s, 'selftest', {
              report_type: 1,
              // As a network reports: most self-tests pass; one in 50 fails (the next passes).
              result: sent % 500 === 9 ? 'fail' : 'pass',
              fault_codes: [],
            })
          : message(s, 'heartbeat', { battery: 80 })
      const t0 = performance.now()
      const p = ingest(ctx, s, [m], 'mqtt').then(() => {
        lat.push(performance.now() - t0)
        inflight.delete(p)
      })
      inflight.add(p)
      sent++
    }
    await new Promise((res) => setImmediate(res))
  }
  await Promise.all(inflight)
  const took = (performance.now() - start) / 1000
  const sorted = ascending(lat)
  console.log(
    `engine   mixed 90/10 offered ${RATE}/s: done ${(lat.length / took).toFixed(0)} /s, ack latency p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${Math.max(...lat).toFixed(0)} ms`,
  )
}

async function main() {
  const { database, dataDir, label, drop } = await open()
  const ctx = await benchContext(
    database,
    { DATA_DIR: dataDir, SEED_DEMO: 'true', SEED_HISTORY: 'false' },
    'warn',
  )
  const all = await senders(ctx)
  const concurrency = label === 'PostgreSQL' ? 16 : 4
  console.log(
    `${label}: ${all.length} devices (${all.length - DEVICES} of the demo), ${SECONDS} s per measurement`,
  )
  const raw = await ceiling(ctx, concurrency)
  await settle(ctx)
  if (runs('changing')) await changing(ctx, all, concurrency, raw.single)
  if (runs('heartbeats')) await heartbeats(ctx, all, raw.bulk)
  if (runs('mixed')) await mixed(ctx, all)
  await database.close()
  await drop()
  fs.rmSync(dataDir, { recursive: true, force: true })
}

runBench(main)
