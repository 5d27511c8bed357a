import type pg from 'pg'
import { JOB_LOCK_CLASS, jobLockKey } from '../../jobs/runner.ts'
import { signDeviceRequest } from '../../plugins/auth/device.ts'
import type { Cluster } from '../cluster/launch.ts'
import type { Consoles } from './consoles.ts'
import type { Load } from './load.ts'
import type { TcpProxy } from './tcp-proxy.ts'

// The six faults. Each injects its fault, waits until the load and the consoles are whole
// again (that wait is the recovery time), and leaves the cluster as it found it: a killed
// instance started again, the proxy passing.

export type FaultEnv = {
  cluster: Cluster
  /** Instance 1's link to PostgreSQL. */
  proxy: TcpProxy
  db: pg.Client
  /** Opens another connection to the cluster's database (the job fault holds a lock on one). */
  connect: () => Promise<pg.Client>
  load: Load
  consoles: Consoles
  /** An installed AED the load does not drive (the job fault makes it overdue). */
  spare: { id: number; sn: string; secret: string }
  log: (line: string) => void
}

/** What a fault reports besides the invariants: its recovery time and what went wrong in it. */
export type FaultOutcome = { recoveryMs: number | null; problems: string[] }

export type Fault = { name: string; run(env: FaultEnv): Promise<FaultOutcome> }

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Polls `ok` every 100 ms until it holds (answers when, ms since the epoch) or `ms` pass (null). */
async function until(ok: () => boolean | Promise<boolean>, ms: number): Promise<number | null> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (await ok()) return Date.now()
    await sleep(100)
  }
  return null
}

/**
 * Waits until every device had a message made after `since` acknowledged, nothing older than 2 s
 * is unacknowledged, every MQTT device is connected and every console whose address is up (`down`
 * names the ones that are not) has joined again; answers the time from `since`, or null after `ms`.
 */
async function recovered(env: FaultEnv, since: number, down: string[] = [], ms = 60_000) {
  const mqtt = env.load.devices.filter((d) => d.transport === 'mqtt').length
  const at = await until(
    () =>
      env.load.ackedSince(since) === env.load.devices.length &&
      env.load.unacknowledged(2000) === 0 &&
      env.load.connected() === mqtt &&
      env.consoles.consoles.every((c) => c.open || down.includes(c.via)),
    ms,
  )
  return at === null ? null : at - since
}

const notRecovered = (what: string) => `not recovered within 60 s (${what})`

/** kill -9 of instance 0: devices and consoles go on through nginx and the broker to instance 1. */
const killServer: Fault = {
  name: 'kill -9 server 0',
  async run(env) {
    const t0 = Date.now()
    await env.cluster.killServer(0, 'SIGKILL')
    const recoveryMs = await recovered(env, t0, ['server-0'])
    await env.cluster.startServer(0)
    return { recoveryMs, problems: recoveryMs === null ? [notRecovered('instance 0 down')] : [] }
  },
}

const restartPostgres: Fault = {
  name: 'PostgreSQL restart',
  async run(env) {
    const t0 = Date.now()
    await env.cluster.restartPostgres()
    await env.db.query('SELECT 1').catch(() => {})
    const recoveryMs = await recovered(env, t0)
    return { recoveryMs, problems: recoveryMs === null ? [notRecovered('after the restart')] : [] }
  },
}

const restartMosquitto: Fault = {
  name: 'Mosquitto restart',
  async run(env) {
    const t0 = Date.now()
    await env.cluster.restartMosquitto()
    const recoveryMs = await recovered(env, t0)
    return { recoveryMs, problems: recoveryMs === null ? [notRecovered('after the restart')] : [] }
  },
}

/**
 * Instance 1's database link slowed (300 ms a chunk) for 5 s, then cut (black-holed) for 6 s,
 * then its connections reset and new ones let through. Recovery counts from the cut.
 */
const cutLink: Fault = {
  name: 'server 1 DB link slowed, cut',
  async run(env) {
    await env.proxy.setMode({ kind: 'delay', ms: 300 })
    await sleep(5000)
    const t0 = Date.now()
    await env.proxy.setMode({ kind: 'drop' })
    await sleep(6000)
    await env.proxy.setMode({ kind: 'reset' })
    await env.proxy.setMode({ kind: 'pass' })
    const recoveryMs = await recovered(env, t0)
    return { recoveryMs, problems: recoveryMs === null ? [notRecovered('after the link came back')] : [] }
  },
}

/**
 * Instance 1's database link black-holed for 30 s, and only then reset: the instance is up, its
 * sockets open, and nothing it asks of PostgreSQL is answered. Its link watchdog must find the
 * link down, and the load go on through instance 0 before the link returns (the recovery time);
 * consoles on instance 1's own address wait for it. Then everything is whole again.
 */
const partitionLink: Fault = {
  name: 'server 1 DB link black-holed 30 s',
  async run(env) {
    const t0 = Date.now()
    await env.proxy.setMode({ kind: 'drop' })
    const recoveryMs = await recovered(env, t0, ['server-1'], 30_000)
    const left = t0 + 30_000 - Date.now()
    if (left > 0) await sleep(left)
    await env.proxy.setMode({ kind: 'reset' })
    await env.proxy.setMode({ kind: 'pass' })
    const back = await recovered(env, Date.now())
    const problems: string[] = []
    if (recoveryMs === null)
      problems.push('the load did not go on through instance 0 while the link was black-holed')
    if (back === null) problems.push(notRecovered('after the link came back'))
    return { recoveryMs, problems }
  },
}

/**
 * The instance running the offline sweep is killed in the middle of it: a spare AED is made
 * overdue and its row locked here, so the sweep that takes it waits there holding the job's
 * advisory lock; the holder (by its application_name) is killed, the row let go, and the other
 * instance must then run the sweep and mark the AED offline, once.
 */
const killJobRunner: Fault = {
  name: 'job runner killed mid-job',
  async run(env) {
    const problems: string[] = []
    await heartbeat(env)
    const { db, spare } = env
    await db.query(
      `UPDATE device_states SET next_deadline_at = now() - interval '1 minute' WHERE device_id = $1 AND NOT offline`,
      [spare.id],
    )
    const blocker = await env.connect()
    let instance = -1
    try {
      await blocker.query('BEGIN')
      await blocker.query('SELECT 1 FROM devices WHERE id = $1 FOR UPDATE', [spare.id])
      // Due now: its last run is made older than its interval.
      await db.query(
        `UPDATE job_runs SET last_run_at = now() - interval '10 minutes' WHERE name = 'offline-sweep'`,
      )
      const key = jobLockKey('offline-sweep') >>> 0
      const holder = await until(async () => {
        const r = await db.query<{ app: string }>(
          `SELECT a.application_name AS app FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
           WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1 AND l.objid::bigint = $2
             AND EXISTS (SELECT 1 FROM pg_stat_activity w WHERE w.application_name = a.application_name
                         AND w.wait_event_type = 'Lock' AND w.query LIKE '%engine_device_facts%')`,
          [JOB_LOCK_CLASS, key],
        )
        const m = /^aed-server-(\d+)$/.exec(r.rows[0]?.app ?? '')
        if (m) instance = Number(m[1])
        return instance >= 0
      }, 40_000)
      if (holder === null) {
        await blocker.query('ROLLBACK')
        return { recoveryMs: null, problems: ['no instance took the offline sweep within 40 s'] }
      }
      env.log(`  the offline sweep waits on instance ${instance}; killing it`)
      await env.cluster.killServer(instance, 'SIGKILL')
      await blocker.query('COMMIT')
    } finally {
      await blocker.end().catch(() => {})
    }
    const t0 = Date.now()
    const offline = await until(async () => {
      const r = await db.query<{ offline: boolean }>(
        'SELECT offline FROM device_states WHERE device_id = $1',
        [spare.id],
      )
      return r.rows[0]?.offline === true
    }, 60_000)
    const recoveryMs = offline === null ? null : offline - t0
    if (offline === null) problems.push(`the other instance did not mark ${spare.sn} offline within 60 s`)
    const events = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM device_events WHERE device_id = $1 AND kind = 'offline'`,
      [spare.id],
    )
    if (offline !== null && events.rows[0].n !== 1)
      problems.push(`${spare.sn} has ${events.rows[0].n} offline events, not 1`)
    await env.cluster.startServer(instance)
    const back = await recovered(env, t0)
    if (back === null) problems.push(notRecovered(`instance ${instance} started again`))
    return { recoveryMs, problems }
  },
}

/** One heartbeat of the spare AED through nginx, so it has a state and a deadline. */
async function heartbeat(env: FaultEnv) {
  const { sn, secret } = env.spare
  const path = '/device-api/v1/messages'
  const body = Buffer.from(
    JSON.stringify([
      {
        v: 1,
        id: `spare-${Date.now()}`,
        boot: 1,
        seq: Date.now(),
        ts: Date.now(),
        type: 'heartbeat',
        data: { battery: 90 },
      },
    ]),
  )
  const res = await fetch(new URL(path, env.cluster.urls.http), {
    method: 'POST',
    headers: {
      ...signDeviceRequest(sn, secret, { method: 'POST', path, body }),
      'content-type': 'application/json',
    },
    body,
  })
  if (res.status !== 200) throw new Error(`the spare AED's heartbeat: HTTP ${res.status}`)
}

/**
 * In the order they run; the broker's restart last, since what it breaks (the servers' shared
 * subscription, lost by Mosquitto 2.0.11 while it keeps their sessions) outlasts it.
 */
export const FAULTS: readonly Fault[] = [
  killServer,
  restartPostgres,
  cutLink,
  killJobRunner,
  restartMosquitto,
  partitionLink,
]
