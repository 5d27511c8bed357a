import pg from 'pg'
import type { FleetDevice } from '../../fleet/fleet-api.ts'
import type { Envelope } from '../../fleet/model.ts'
import type { Transport } from '../../fleet/transports.ts'
import { log } from '../harness/report.ts'
import { sleep } from '../harness/servers.ts'
import type { BenchDevice, Devices } from './types.ts'

// 4. Before the measurement: the devices' first messages (state rows, online), and the outbox
// they filled drained; the devices split between the load and the rescues.

/** The bench's devices, sending as the simulator does in boot `boot`, message ids of run `runId`. */
export function benchDevices(all: BenchDevice[], runId: string, boot: number): Devices {
  const fleet = new Map(
    all.map((d): [string, FleetDevice] => [
      d.sn,
      {
        id: 0,
        sn: d.sn,
        secret: d.secret,
        model: 'D100',
        fwVersion: 'V1.0.0',
        installation: null,
        padsExpire: null,
        batteryExpire: null,
        status: 0,
      },
    ]),
  )
  return {
    all,
    fleet: (d) => fleet.get(d.sn) as FleetDevice,
    envelope: (d, type, data) => {
      d.seq++
      return { v: 1, id: `${runId}-${d.seq}`, seq: d.seq, boot, ts: Date.now(), type, data } as Envelope
    },
  }
}

/**
 * Per organisation: the devices kept for rescues (not in the load, so a rescue never waits behind
 * a batch of its own device), a tenth of each organisation's or enough for one rescue a device
 * over the run (`rescues` in all); the rest make the load.
 */
export function splitPools(devices: BenchDevice[], rescues: number) {
  const rescuePool = new Map<string, BenchDevice[]>()
  const loadPool: BenchDevice[] = []
  const byOrg = new Map<string, BenchDevice[]>()
  for (const d of devices) byOrg.set(d.agencyKey, [...(byOrg.get(d.agencyKey) ?? []), d])
  for (const [k, ds] of byOrg) {
    const keep = Math.min(
      ds.length - 1,
      Math.max(Math.ceil(ds.length / 10), Math.ceil(rescues / byOrg.size) + 1),
    )
    rescuePool.set(k, ds.slice(0, keep))
    loadPool.push(...ds.slice(keep))
  }
  return { rescuePool, loadPool }
}

/** Every device's hello and a heartbeat, 32 at a time over the instances' load transports. */
export async function firstMessages(devices: Devices, load: Transport[]) {
  let next = 0
  let bad = 0
  const t = performance.now()
  await Promise.all(
    Array.from({ length: 32 }, async (_, w) => {
      while (next < devices.all.length) {
        const d = devices.all[next++]
        const r = await load[w % load.length].send(devices.fleet(d), [
          devices.envelope(d, 'hello', { model: 'D100', fw_version: 'V1.0.0', report_interval_s: 3600 }),
          devices.envelope(d, 'heartbeat', { battery: 90, rssi: -70 }),
        ])
        if (!r.ok) bad++
      }
    }),
  )
  log(
    `first messages of ${devices.all.length} devices in ${((performance.now() - t) / 1000).toFixed(1)} s (${bad} failed)`,
  )
}

/** Waits (up to 5 minutes) until the outbox the first messages filled is drained, so no alarm waits behind it. */
export async function drainOutbox(url: string) {
  const t = performance.now()
  const q = new pg.Client({ connectionString: url })
  await q.connect()
  let left = -1
  while (performance.now() - t < 300_000) {
    const r = await q.query(
      // Every topic has a handler (webhook rows fan out into deliveries, sent outside the drain).
      'SELECT count(*)::int AS n FROM outbox WHERE done_at IS NULL AND available_at <= now()',
    )
    left = r.rows[0].n
    if (left === 0) break
    await sleep(500)
  }
  await q.end()
  log(`outbox drained in ${((performance.now() - t) / 1000).toFixed(1)} s (${left} left)`)
}
