// `npm run bench:calls -- [--calls 50] [--rate R] [--consoles 200] [--minutes 2] [--database-url URL]`:
// an emergency call's way from its intake to the alarm popup of the consoles, beside the alarm
// bench's device load.
//
//   1. A fresh database, seeded as the alarm bench seeds it (the demo network without history,
//      `--devices` factory devices over the demo organisations): PGlite in the data folder of the
//      one instance, or with --database-url (or BENCH_DATABASE_URL) a new database on that
//      PostgreSQL server and `--instances` (default 2) server processes on it.
//   2. `--consoles` live-channel WebSockets over the instances, signed in as the nine
//      single-organisation demo members in turn.
//   3. Per ordinary demo organisation an integrator (a service configuration with the open API)
//      and its administrator (the console's 登记呼救).
//   4. The devices' first messages; the outbox they filled drained.
//   5. For `--minutes`: the alarm bench's device load (signed HTTPS batches at `--rate` messages a
//      second, 90 % heartbeats, 10 % self-tests) and `--calls` calls a second, each organisation in
//      turn, by its integrator and its administrator in turn (`--via`), to each instance in turn.
//   6. For every call, the time from its POST to each console's alarm frame (data_type 2,
//      event_type 1, event_id the call's id); every console in scope must get it exactly once.
//      Where the time goes, from the call's and the push's stamps; CPU and RSS.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { httpTransport } from '../../fleet/transports.ts'
import { openConsoles } from '../alarm/consoles.ts'
import { startLoad } from '../alarm/load.ts'
import { startSampling } from '../alarm/samples.ts'
import { benchDevices, drainOutbox, firstMessages } from '../alarm/warm-up.ts'
import { createDatabase, dropDatabase, newKeys } from '../harness/database.ts'
import { atLeast, parseOptions } from '../harness/options.ts'
import { log } from '../harness/report.ts'
import { freePort, runBench, SERVER_MAIN, sleep, startServer, stopServers } from '../harness/servers.ts'
import { callAlarms, makeCallers, startCalls } from './callers.ts'
import { report } from './report.ts'
import { type BenchStore, seedStore } from './setup.ts'
import type { CallAlarms, CallsOptions, SentCall } from './types.ts'

function options(): CallsOptions {
  const { values: a } = parseOptions(
    {
      calls: { type: 'string', default: '50' },
      via: { type: 'string', default: 'mixed' },
      rate: { type: 'string' },
      consoles: { type: 'string', default: '200' },
      minutes: { type: 'string', default: '2' },
      'database-url': { type: 'string' },
      instances: { type: 'string' },
      devices: { type: 'string', default: '2000' },
      batch: { type: 'string', default: '10' },
      sockets: { type: 'string', default: '48' },
      grace: { type: 'string', default: '15' },
      keep: { type: 'boolean', default: false },
      profile: { type: 'string' },
    },
    `npm run bench:calls -- [options]
  --calls N         calls a second in all (default 50)
  --via V           open-api (the integrators), console (登记呼救) or mixed, in turn (default mixed)
  --rate R          device messages a second in all, the alarm bench's load (default 5000 on
                    PostgreSQL, 1000 on PGlite; 0: none)
  --consoles N      live-channel sockets over the instances (default 200)
  --minutes M       length of the measured run (default 2; at least 1 for the issue's 60 s)
  --database-url U  a PostgreSQL server to create the bench database in (default BENCH_DATABASE_URL;
                    neither: PGlite in the one instance's data folder); dropped at the end
  --instances N     server processes (default 2 on PostgreSQL; PGlite: 1)
  --devices N       factory devices made for the load (default 2000)
  --batch B         messages per HTTPS request (default 10; at most 100)
  --sockets S       kept-alive connections per instance for the load (default 48)
  --grace S         seconds to wait for late pushes after the run (default 15)
  --keep            keep the database (it is named in the output)
  --profile DIR     write each server's CPU profile (node --cpu-prof) into DIR`,
  )
  const adminUrl = a['database-url'] ?? process.env.BENCH_DATABASE_URL ?? null
  if (!['open-api', 'console', 'mixed'].includes(a.via)) {
    console.error('--via must be open-api, console or mixed')
    process.exit(2)
  }
  const instances = adminUrl ? atLeast(a.instances ?? '2', 'instances', 1) : 1
  if (!adminUrl && a.instances && a.instances !== '1') console.error('PGlite: one instance')
  return {
    calls: atLeast(a.calls, 'calls', 0.1),
    via: a.via as CallsOptions['via'],
    rate: atLeast(a.rate ?? (adminUrl ? '5000' : '1000'), 'rate', 0),
    consoles: atLeast(a.consoles, 'consoles', 1),
    minutes: atLeast(a.minutes, 'minutes', 0.1),
    devices: atLeast(a.devices, 'devices', 50),
    batch: Math.min(100, atLeast(a.batch, 'batch', 1)),
    sockets: atLeast(a.sockets, 'sockets', 1),
    graceMs: atLeast(a.grace, 'grace', 1) * 1000,
    instances,
    adminUrl,
    keep: a.keep,
    profile: a.profile,
  }
}

/** The instances on the store, each with its own data folder (the PGlite one holds the database). */
async function startInstances(
  o: CallsOptions,
  store: BenchStore,
  work: string,
  keys: Record<string, string>,
) {
  const servers = []
  for (let i = 0; i < o.instances; i++) {
    const name = 'ab'[i] ?? `s${i}`
    const port = await freePort()
    servers.push(
      startServer({
        name,
        entry: SERVER_MAIN,
        nodeArgs: o.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(o.profile)}`] : [],
        env: {
          ...keys,
          ...(store.kind === 'postgres'
            ? { DATABASE_URL: store.url, DATA_DIR: path.join(work, name, 'data') }
            : { DATA_DIR: store.dataDir }),
          PORT: String(port),
          WEB_DIST: '/nonexistent',
        },
        logFile: path.join(work, `${name}.log`),
        ready: { path: '/api/health', everyMs: 100, tries: 600 },
      }),
    )
  }
  const up = await Promise.all(servers)
  log(`instances up: ${up.map((s) => s.base).join(', ')} (pids ${up.map((s) => s.pid).join(', ')})`)
  return up
}

/** PGlite's outbox cannot be read beside its server: waits until no status push came for 3 s (60 s at most). */
async function waitQuiet(consoles: { frames: Record<number, number> }[]) {
  const t = performance.now()
  const statusFrames = () => consoles.reduce((n, c) => n + (c.frames[11] ?? 0), 0)
  let last = statusFrames()
  let quietSince = performance.now()
  while (performance.now() - quietSince < 3000 && performance.now() - t < 60_000) {
    await sleep(250)
    const now = statusFrames()
    if (now !== last) {
      last = now
      quietSince = performance.now()
    }
  }
  log(`status pushes quiet after ${((performance.now() - t) / 1000).toFixed(1)} s`)
}

async function run(o: CallsOptions) {
  const started = Date.now()
  const runId = started.toString(36)
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-bench-calls-'))
  const dbName = `bench_calls_${started}`
  const store: BenchStore = o.adminUrl
    ? { kind: 'postgres', url: await createDatabase(o.adminUrl, dbName), dbName }
    : { kind: 'pglite', dataDir: path.join(work, 'a', 'data') }
  const keys = newKeys()
  let stopped = false
  const stop = async () => {
    if (stopped) return
    stopped = true
    await stopServers(o.profile ? 10_000 : 3000) // a profile is written, PGlite closed, as the process exits
  }
  const cleanup = async () => {
    await stop()
    if (store.kind === 'postgres' && !o.keep) await dropDatabase(o.adminUrl as string, dbName)
    if (!o.keep || store.kind === 'postgres') fs.rmSync(work, { recursive: true, force: true })
  }
  process.once('SIGINT', () => {
    void cleanup().finally(() => process.exit(130))
  })
  try {
    const load0 = os.loadavg()
    log(
      `${store.kind === 'postgres' ? `database ${dbName}` : `PGlite in ${store.dataDir}`}; load average ${load0.map((x) => x.toFixed(2)).join(' ')} on ${os.cpus().length} cores`,
    )
    const seeded = await seedStore(o, store, work, keys)
    const servers = await startInstances(o, store, work, keys)
    const alarms: CallAlarms = { frames: new Map(), pushIds: new Map(), escalations: 0, other: 0 }
    const { consoles, joined, tokens } = await openConsoles(
      o.consoles,
      servers,
      seeded.links,
      callAlarms(alarms),
    )
    const callers = await makeCallers(servers[0].base, seeded.places, seeded.ids, seeded.links, tokens)
    const load = servers.map((s) => httpTransport(s.base, o.sockets))
    const devices = benchDevices(seeded.devices, runId, Math.floor(started / 1000) % 2_000_000_000)
    await firstMessages(devices, load)
    if (store.kind === 'postgres') await drainOutbox(store.url)
    else await waitQuiet(consoles)

    // 5. The run.
    const runStart = performance.now()
    const wallStart = Date.now()
    const traffic = startLoad(o, devices, seeded.devices, load, runStart)
    const calls: SentCall[] = []
    const sender = startCalls(o, runId, callers, servers, consoles, calls, runStart)
    const sampling = startSampling(
      servers,
      store.kind === 'postgres' ? dbName : 'no-such-database',
      traffic.stats,
      runStart,
    )
    const delay = monitorEventLoopDelay({ resolution: 10 })
    delay.enable()
    const progress = setInterval(() => {
      const secs = (performance.now() - runStart) / 1000
      const answered = calls.filter((c) => c.id !== null)
      const heard = answered.filter((c) => alarms.frames.has(c.id as number)).length
      log(
        `${secs.toFixed(0)} s: ${(traffic.stats.acked / secs).toFixed(0)} msg/s acked | calls ${calls.length} sent, ${answered.length} answered, ${calls.filter((c) => c.error).length} failed, ${heard} heard | load ${os.loadavg()[0].toFixed(1)}`,
      )
    }, 10_000)
    await sleep(o.minutes * 60_000)
    sender.stop()
    await traffic.stop()
    sampling.stop()
    const loadSecs = (performance.now() - runStart) / 1000
    log(
      `run stopped after ${loadSecs.toFixed(0)} s; ${sender.state.inflight} calls and ${traffic.stats.inflight} batches in flight`,
    )
    const until = performance.now() + o.graceMs + 60_000
    while ((sender.state.inflight > 0 || traffic.stats.inflight > 0) && performance.now() < until)
      await sleep(100)
    await sleep(o.graceMs)
    clearInterval(progress)
    delay.disable()
    const load1 = os.loadavg()
    for (const c of consoles) c.ws.terminate()
    for (const t of load) await t.close()
    await stop()
    await report({
      o,
      store,
      servers,
      consoles,
      joined,
      calls,
      alarms,
      stats: traffic.stats,
      samples: sampling.samples,
      delay,
      load0,
      load1,
      wallStart,
      loadSecs,
    })
  } finally {
    await cleanup()
  }
}

runBench(() => run(options()), { exit: true })
