import type { Envelope } from '../../fleet/model.ts'
import type { Transport } from '../../fleet/transports.ts'
import { sleep } from '../harness/servers.ts'
import type { AlarmOptions, BenchDevice, Devices } from './types.ts'

// 5. The load: signed HTTPS batches at the offered rate, 90 % heartbeats and 10 % self-tests (one
// in 50 fails), to each instance in turn.

export type LoadStats = {
  offered: number
  acked: number
  duplicates: number
  errors: number
  refused: number
  /** Messages not offered because the client was behind. */
  skipped: number
  requests: number
  ackMs: number[]
  errorKinds: Map<string, number>
  /** Requests not answered yet. */
  inflight: number
}

/** The next batch of `n` messages of device `d`, the `sent`-th message of the run first. */
function batchOf(devices: Devices, d: BenchDevice, n: number, sent: number): Envelope[] {
  const batch: Envelope[] = []
  for (let k = 0; k < n; k++) {
    const m = sent + k
    batch.push(
      m % 10 === 9
        ? devices.envelope(d, 'selftest', {
            report_type: 1,
            result: m % 500 === 9 ? 'fail' : 'pass',
            fault_codes: m % 500 === 9 ? ['E02'] : [],
          })
        : devices.envelope(d, 'heartbeat', { battery: 90, rssi: -70 }),
    )
  }
  return batch
}

/**
 * Starts the load from the devices of `pool` (one request per device at a time) over `transports`
 * from `runStart`; stop() ends it (what is in flight goes on: see stats.inflight).
 */
export function startLoad(
  o: Pick<AlarmOptions, 'rate' | 'batch' | 'sockets'>,
  devices: Devices,
  pool: BenchDevice[],
  transports: Transport[],
  runStart: number,
) {
  const stats: LoadStats = {
    offered: 0,
    acked: 0,
    duplicates: 0,
    errors: 0,
    refused: 0,
    skipped: 0,
    requests: 0,
    ackMs: [],
    errorKinds: new Map(),
    inflight: 0,
  }
  let stop = false
  // No request waits for a connection on the client: a slow server lowers what is offered.
  const cap = o.sockets * 2
  let rr = 0
  let turn = 0
  let sentMsgs = 0
  const send = (d: BenchDevice, n: number) => {
    const batch = batchOf(devices, d, n, sentMsgs)
    sentMsgs += n
    stats.offered += n
    stats.requests++
    d.busy = true
    stats.inflight++
    const t = performance.now()
    void transports[turn++ % transports.length].send(devices.fleet(d), batch).then((r) => {
      stats.inflight--
      d.busy = false
      if (r.ok) {
        stats.acked += r.acked.length
        stats.duplicates += r.duplicates.length
        stats.ackMs.push(performance.now() - t)
      } else {
        if (r.refused) stats.refused += n
        else stats.errors += n
        const k = r.error.slice(0, 80)
        stats.errorKinds.set(k, (stats.errorKinds.get(k) ?? 0) + 1)
      }
    })
  }
  const loop = (async () => {
    while (!stop) {
      const due = Math.floor(((performance.now() - runStart) / 1000) * o.rate) - sentMsgs
      // Behind by more than a second's worth: what cannot be offered is counted, not queued.
      if (due > o.rate) {
        stats.skipped += due - o.rate
        sentMsgs += due - o.rate
      }
      let want = Math.floor(((performance.now() - runStart) / 1000) * o.rate) - sentMsgs
      let scanned = 0
      while (want > 0 && stats.inflight < cap && scanned < pool.length) {
        const d = pool[rr++ % pool.length]
        scanned++
        if (d.busy) continue
        const n = Math.min(o.batch, want)
        want -= n
        send(d, n)
      }
      await sleep(10)
    }
  })()
  return {
    stats,
    stop: () => {
      stop = true
      return loop
    },
  }
}
