import type { Transport } from '../../fleet/transports.ts'
import type { Alarms, BenchDevice, ConsoleWs, Devices, Rescue } from './types.ts'

// 5. The rescues: a `usage` message with a new rescue_event_id every `everyMs`, from a device of
// each organisation in turn (of its rescue pool), on connections of their own.

/** Starts sending rescues into `alarms`; answers stop(), and how many could not be sent. */
export function startRescues(
  everyMs: number,
  runId: string,
  devices: Devices,
  pools: Map<string, BenchDevice[]>,
  consoles: ConsoleWs[],
  alarmLine: Transport[],
  alarms: Alarms,
) {
  const orgKeys = [...pools.keys()]
  const counts = { skipped: 0 }
  const timer = setInterval(() => {
    const n = alarms.rescues.length
    const key = orgKeys[n % orgKeys.length]
    const pool = pools.get(key) as BenchDevice[]
    const d = pool[Math.floor(n / orgKeys.length) % pool.length]
    if (alarms.bySn.has(d.sn)) {
      // Every rescue device used: one alarm per device keeps the frames unambiguous.
      counts.skipped++
      return
    }
    const expected = new Set(
      consoles.filter((c) => c.open && d.indexLink.startsWith(c.indexLink)).map((c) => c.i),
    )
    const msg = devices.envelope(d, 'usage', {
      rescue_event_id: `B${runId}-${n}`,
      event_time: Date.now(),
      event_desc: 'power_on',
    })
    const r: Rescue = {
      n,
      sn: d.sn,
      indexLink: d.indexLink,
      agencyKey: key,
      sentAt: Date.now(),
      msgId: msg.id,
      ackMs: null,
      error: null,
      expected,
      got: new Map(),
      pushId: null,
      aheadOf: new Map(),
    }
    alarms.rescues.push(r)
    alarms.bySn.set(d.sn, r)
    void alarmLine[n % 2].send(devices.fleet(d), [msg]).then((res) => {
      if (res.ok) r.ackMs = Date.now() - r.sentAt
      else r.error = res.error
    })
  }, everyMs)
  return { stop: () => clearInterval(timer), counts }
}
