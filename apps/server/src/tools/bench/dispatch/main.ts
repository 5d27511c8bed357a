// `npm run bench:dispatch`: dispatch (issue 26) on `npm run bench`'s network (network.ts: 100,000
// registered devices, 85 % of them made ready) and bench:responders' 20,000 responders (Zhejiang).
//
//   1. The data, loaded once into BENCH_DIR (PGlite) or BENCH_DATABASE_URL (PostgreSQL); every run
//      closes an earlier run's calls and gives 3 % of the responders a fresh shared position.
//   2. Target 1 (choice.ts), in process: the choice of a wave (the candidates query, readyAedsNear,
//      planWave) for calls in a city, in sparse places and where there are AEDs and no one, at each
//      phase's radius: p95 ≤ 50 ms.
//   3. Target 2, through real servers (one on PGlite in the same folder; BENCH_INSTANCES, default 2,
//      on PostgreSQL): calls recorded one at a time by the system administrator (登记呼救). From
//      each call's HTTP answer (it committed before) to the create_time of its first alert's SMS
//      (sms_outbox, read afterwards): ≤ 1 s. Also to the console's first `alerted` frame of the
//      dispatch (the SMS committed and pushed: what a reader of the outbox could see by then).
//   4. Target 3: BENCH_BURST (100) calls at once. Read with the servers stopped, then the servers
//      again: every alerted responder taps accept on every link they got (the oldest first).
//      Afterwards every call has exactly one dispatch, every alert exactly one SMS, no responder
//      is alerted twice by one dispatch and none holds two accepted alerts.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { type Database, openPglite, openPostgres } from '../../../db/client.ts'
import { benchContext, newKeys, openBenchDatabase } from '../harness/database.ts'
import { envNumber, parseOptions } from '../harness/options.ts'
import { log } from '../harness/report.ts'
import {
  freePort,
  runBench,
  SERVER_MAIN,
  type ServerProcess,
  startServer,
  stopServers,
} from '../harness/servers.ts'
import { signInHttp } from '../harness/sign-in.ts'
import { acceptAll, type Console, openConsole, plannedCalls, postCall, waitForFrames } from './calls.ts'
import { alertLinks, firstSms, invariants } from './check.ts'
import { timeChoices } from './choice.ts'
import { report } from './report.ts'
import { areas, counts, loadData, resetRun, rootScope } from './setup.ts'
import type { SentCall } from './types.ts'

parseOptions(
  {},
  `npm run bench:dispatch (settings in the environment)
  BENCH_PARTS=LIST       choice, server or both (default choice,server)
  BENCH_RUNS=N           choices timed per case (default 200)
  BENCH_WARM_UP=N        untimed choices per case first (default 20)
  BENCH_ONLY=RE          only the choice cases whose name matches
  BENCH_EXPLAIN=1        the plans of every choice case, not only of those over the target
  BENCH_PACED=N          calls one at a time (default 100), BENCH_GAP_MS apart (default 300)
  BENCH_BURST=N          calls at once (default 100)
  BENCH_INSTANCES=N      server processes on PostgreSQL (default 2; PGlite: 1)
  BENCH_RESPONDERS=N     responders loaded (default 20000)
  BENCH_DIR=DIR          the embedded database's folder, kept (the servers open it too); default a
                         temporary folder, removed at the end
  BENCH_DATABASE_URL=U   PostgreSQL instead (the database is loaded once and kept)
  BENCH_DEVICES, BENCH_AGENCIES, ...: the network's size (network.ts; default 100000 devices)`,
)

const PARTS = (process.env.BENCH_PARTS ?? 'choice,server').split(',')
const URL = process.env.BENCH_DATABASE_URL
const o = {
  runs: envNumber('BENCH_RUNS', 200),
  warmUp: envNumber('BENCH_WARM_UP', 20),
  only: process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null,
  explainAll: process.env.BENCH_EXPLAIN === '1',
  paced: envNumber('BENCH_PACED', 100),
  gapMs: envNumber('BENCH_GAP_MS', 300),
  burst: envNumber('BENCH_BURST', 100),
  instances: URL ? envNumber('BENCH_INSTANCES', 2) : 1,
  responders: envNumber('BENCH_RESPONDERS', 20_000),
}
/** Untimed calls before the paced ones: the servers' paths compiled. */
const WARM_UP_CALLS = 10
const loadAverage = () =>
  os
    .loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')

async function main() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-bench-dispatch-'))
  const dir = URL ? null : (process.env.BENCH_DIR ?? path.join(work, 'data'))
  if (dir) fs.mkdirSync(dir, { recursive: true })
  const open = (): Promise<Database> => (URL ? openPostgres(URL) : openPglite(dir))
  log(`${os.cpus().length} cores, load average ${loadAverage()}; ${URL ? 'PostgreSQL' : `PGlite in ${dir}`}`)

  // 1. The data.
  const database = await openBenchDatabase(dir)
  const ctx = await benchContext(database, { DATA_DIR: path.join(work, 'setup') })
  const loaded = await loadData(ctx, o.responders)
  const closed = await resetRun(ctx)
  const n = await counts(ctx)
  log(
    `${n?.installed} installed AEDs, ${n?.ready} ready (network ${loaded.networkS.toFixed(1)} s); ${n?.responders} responders ` +
      `(${loaded.respondersS.toFixed(1)} s), ${n?.located} with a fresh shared position; ${closed} calls of earlier runs closed`,
  )
  const scope = await rootScope(ctx)
  const choicePlaces = await areas(ctx, 200, 1)
  const callPlaces = await areas(ctx, 200, 2)

  // 2. Target 1.
  const choice = PARTS.includes('choice') ? await timeChoices(ctx, scope, choicePlaces, o) : null
  await database.close()
  if (!PARTS.includes('server')) {
    report({ o, choice, server: null, load: loadAverage() })
    fs.rmSync(work, { recursive: true, force: true })
    return
  }

  // 3-4. Through the servers.
  const keys = newKeys()
  const start = async () => {
    const servers: ServerProcess[] = []
    for (let i = 0; i < o.instances; i++) {
      const name = 'ab'[i] ?? `s${i}`
      servers.push(
        await startServer({
          name,
          entry: SERVER_MAIN,
          env: {
            ...keys,
            ...(URL ? { DATABASE_URL: URL, DATA_DIR: path.join(work, name) } : { DATA_DIR: dir as string }),
            PORT: String(await freePort()),
            WEB_DIST: '/nonexistent',
          },
          logFile: path.join(work, `${name}.log`),
          // The first start on a freshly loaded folder catches up on the network's backlog first
          // (the expiry recheck of every device, its pushes and SMS): minutes on PGlite.
          ready: { path: '/api/health', everyMs: 500, tries: 3600 },
        }),
      )
    }
    log(`servers up: ${servers.map((s) => `${s.base} (pid ${s.pid})`).join(', ')}`)
    return servers
  }
  const stop = async () => {
    await stopServers(5000) // PGlite closes as the process exits
    log('servers stopped')
  }
  const byId = new Map<number, SentCall>()
  let servers = await start()
  const token = await signInHttp(servers[0].base, '13800000000')
  let consoles: Console[] = servers.map((s) => openConsole(s, token, byId))
  await Promise.all(consoles.map((c) => c.joined))
  const warm = plannedCalls('warm-up', 0, WARM_UP_CALLS, callPlaces, ['city', 'sparse'], o.instances)
  for (const c of warm) await postCall(servers, token, c, byId, consoles)
  await waitForFrames(warm, 'started', 30_000)
  const load0 = loadAverage()
  log(`warm-up done; ${o.paced} calls one at a time, ${o.gapMs} ms apart; load average ${load0}`)
  const paced = plannedCalls('paced', 1000, o.paced, callPlaces, ['city', 'sparse'], o.instances)
  for (const c of paced) {
    await postCall(servers, token, c, byId, consoles)
    await new Promise((r) => setTimeout(r, o.gapMs))
  }
  await waitForFrames(paced, 'started', 60_000)
  await new Promise((r) => setTimeout(r, 2000))
  log(`${o.burst} calls at once; load average ${loadAverage()}`)
  const burst = plannedCalls('burst', 2000, o.burst, callPlaces, ['city', 'sparse'], o.instances)
  const t0 = performance.now()
  await Promise.all(burst.map((c) => postCall(servers, token, c, byId, consoles)))
  const answersMs = performance.now() - t0
  const waited = await waitForFrames(burst, 'started', 120_000)
  log(
    `burst answered in ${(answersMs / 1000).toFixed(1)} s, every dispatch started ${(waited / 1000).toFixed(1)} s later`,
  )
  await new Promise((r) => setTimeout(r, 3000))
  const load1 = loadAverage()
  for (const c of consoles) c.close()
  await stop()

  // Read: the first SMS of every call, and the burst's links.
  let db = await open()
  const sms = await firstSms(db, [...warm, ...paced, ...burst])
  const links = await alertLinks(db, burst)
  const beforeAnswers = await invariants(db, burst)
  await db.close()

  // The responders answer, on the servers again.
  servers = await start()
  consoles = []
  log(`${links.size} alerted responders of the burst accept their ${[...links.values()].flat().length} links`)
  const answers = await acceptAll(servers, links, 50)
  await new Promise((r) => setTimeout(r, 3000)) // the stand-down SMS drained after their commits
  await stop()
  db = await open()
  const afterAnswers = await invariants(db, burst)
  const allCalls = await invariants(db, [...warm, ...paced, ...burst])
  await db.close()

  report({
    o,
    choice,
    server: {
      warm,
      paced,
      burst,
      sms,
      answersMs,
      answers,
      beforeAnswers,
      afterAnswers,
      allCalls,
      load0,
      load1,
    },
    load: loadAverage(),
  })
  // BENCH_DIR's database stays; without it the database was in `work`.
  fs.rmSync(work, { recursive: true, force: true })
}

runBench(main, { exit: true })
