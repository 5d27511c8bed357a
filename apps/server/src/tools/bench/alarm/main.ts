// `npm run bench:alarm -- [--rate 5000] [--consoles 1000] [--minutes 10] [--database-url URL]`:
// the first-aid alarm's way from a device to the consoles, under load, across two instances.
//
//   1. A fresh PostgreSQL database (migrated, the demo network seeded, no history) and
//      `--devices` factory devices spread over the demo organisations, their secrets sealed with
//      the key both instances are given; two server processes (`node --import tsx main.ts`) on it.
//   2. `--consoles` live-channel WebSockets, alternately on each instance, signed in as the demo
//      members of every scope (system, the two general agents, the four organisations).
//   3. Signed HTTPS batches (the simulator's transport) at `--rate` messages a second in all,
//      90 % heartbeats, 10 % self-tests (one in 50 fails), alternately to each instance; and a
//      rescue (`usage` with a new rescue_event_id) every `--rescue-every` seconds from a device of
//      each organisation in turn, on connections of its own.
//   4. For every rescue, the time from its POST to each console's data_type 2 frame; consoles in
//      scope that never got it after a grace period (lost), frames outside the console's scope,
//      the achieved message rate and HTTP errors, each server's RSS every 30 s and the machine's CPU.
//
// The bench process (consoles and load) runs on the same machine as both servers and PostgreSQL.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { httpTransport } from '../../fleet/transports.ts'
import { createDatabase, dropDatabase, newKeys } from '../harness/database.ts'
import { atLeast, parseOptions } from '../harness/options.ts'
import { log } from '../harness/report.ts'
import { freePort, runBench, SERVER_MAIN, startServer, stopServers } from '../harness/servers.ts'
import { openConsoles, rescueAlarms } from './consoles.ts'
import { measure } from './measure.ts'
import { report } from './report.ts'
import { seedBenchDatabase } from './setup.ts'
import type { AlarmOptions, Alarms } from './types.ts'
import { benchDevices, drainOutbox, firstMessages, splitPools } from './warm-up.ts'

function options(): AlarmOptions {
  const { values: a } = parseOptions(
    {
      rate: { type: 'string', default: '5000' },
      consoles: { type: 'string', default: '1000' },
      minutes: { type: 'string', default: '10' },
      'database-url': { type: 'string' },
      devices: { type: 'string', default: '2000' },
      batch: { type: 'string', default: '10' },
      sockets: { type: 'string', default: '48' },
      'rescue-every': { type: 'string', default: '2' },
      grace: { type: 'string', default: '15' },
      keep: { type: 'boolean', default: false },
      profile: { type: 'string' },
    },
    `npm run bench:alarm -- [options]
  --rate R          device messages a second in all (default 5000)
  --consoles N      live-channel sockets, half on each instance (default 1000)
  --minutes M       length of the measured run (default 10)
  --database-url U  a PostgreSQL server to create the bench database in (default BENCH_DATABASE_URL,
                    else postgres://postgres@127.0.0.1:55432/postgres); dropped at the end
  --devices N       factory devices made for the load (default 2000)
  --batch B         messages per HTTPS request (default 10; at most 100)
  --sockets S       kept-alive connections per instance for the load (default 48)
  --rescue-every S  seconds between rescues (default 2)
  --grace S         seconds to wait for late pushes after the load stops (default 15)
  --keep            keep the database (it is named in the output)
  --profile DIR     write each server's CPU profile (node --cpu-prof) into DIR`,
  )
  return {
    rate: atLeast(a.rate, 'rate', 1),
    consoles: atLeast(a.consoles, 'consoles', 1),
    minutes: atLeast(a.minutes, 'minutes', 0.1),
    devices: atLeast(a.devices, 'devices', 50),
    batch: Math.min(100, atLeast(a.batch, 'batch', 1)),
    sockets: atLeast(a.sockets, 'sockets', 1),
    rescueEveryMs: atLeast(a['rescue-every'], 'rescue-every', 0.1) * 1000,
    graceMs: atLeast(a.grace, 'grace', 1) * 1000,
    adminUrl:
      a['database-url'] ?? process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:55432/postgres',
    keep: a.keep,
    profile: a.profile,
  }
}

/** 2. Two instances on the database, each with its own data folder (and CPU profile with --profile). */
async function startInstances(o: AlarmOptions, url: string, work: string, keys: Record<string, string>) {
  const ports = [await freePort(), await freePort()]
  const servers = await Promise.all(
    (['a', 'b'] as const).map((name, i) =>
      startServer({
        name,
        entry: SERVER_MAIN,
        nodeArgs: o.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(o.profile)}`] : [],
        env: {
          ...keys,
          DATABASE_URL: url,
          PORT: String(ports[i]),
          DATA_DIR: path.join(work, name, 'data'),
          WEB_DIST: '/nonexistent',
        },
        logFile: path.join(work, name, `${name}.log`),
        ready: { path: '/api/health', everyMs: 100, tries: 600 },
      }),
    ),
  )
  log(`instances up: ${servers.map((s) => s.base).join(', ')} (pids ${servers.map((s) => s.pid).join(', ')})`)
  return servers
}

async function run(o: AlarmOptions) {
  const started = Date.now()
  const runId = started.toString(36)
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-bench-alarm-'))
  const dbName = `bench_alarm_${started}`
  const url = await createDatabase(o.adminUrl, dbName)
  const keys = newKeys()
  const cleanup = async () => {
    await stopServers(o.profile ? 10_000 : 1500) // a profile is written as the process exits
    if (!o.keep) await dropDatabase(o.adminUrl, dbName)
    fs.rmSync(work, { recursive: true, force: true })
  }
  process.once('SIGINT', () => {
    void cleanup().finally(() => process.exit(130))
  })
  try {
    const load0 = os.loadavg()
    log(
      `database ${dbName}; load average ${load0.map((x) => x.toFixed(2)).join(' ')} on ${os.cpus().length} cores`,
    )
    const seeded = await seedBenchDatabase(url, work, keys, o.devices)
    const servers = await startInstances(o, url, work, keys)
    const alarms: Alarms = {
      rescues: [],
      bySn: new Map(),
      outOfScope: 0,
      unknown: 0,
      duplicates: 0,
      escalations: 0,
    }
    const { consoles, joined } = await openConsoles(o.consoles, servers, seeded.links, rescueAlarms(alarms))
    // 4. Before the measurement.
    const load = servers.map((s) => httpTransport(s.base, o.sockets))
    const alarmLine = servers.map((s) => httpTransport(s.base, 8))
    const devices = benchDevices(seeded.devices, runId, Math.floor(started / 1000) % 2_000_000_000)
    const pools = splitPools(seeded.devices, Math.ceil((o.minutes * 60_000) / o.rescueEveryMs))
    await firstMessages(devices, load)
    await drainOutbox(url)
    const m = await measure({ o, runId, dbName, servers, devices, pools, consoles, load, alarmLine, alarms })
    await report({ ...m, o, url, dbName, servers, consoles, joined, alarms, load0 })
    for (const c of consoles) c.ws.terminate()
    for (const t of [...load, ...alarmLine]) await t.close()
  } finally {
    await cleanup()
  }
}

runBench(() => run(options()), { exit: true })
