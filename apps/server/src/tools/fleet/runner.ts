import { type CabinetModel, createCabinetModel, randomDoors } from './cabinet-model.ts'
import type { FleetCabinet, FleetDevice } from './fleet-api.ts'
import {
  type Command,
  createDeviceModel,
  currentEpisodes,
  type DeviceModel,
  type Envelope,
  randomEpisodes,
  scaledRates,
  seededRng,
} from './model.ts'
import { createStats, type Stats, tokenBucket } from './stats.ts'
import type { Transport } from './transports.ts'

// Drives the fleet (AEDs and rescue cabinets) in scaled real time: each device's model is moved to "now" (the run's start
// plus the time elapsed times the speed), what it produces is queued per device, and workers
// send each device's queue in order through the transport, resending what was not acknowledged
// and carrying out the commands that come back.

export type RunOptions = {
  minutes: number
  /** Model seconds per real second. */
  speed: number
  /** Total messages per second (token bucket); null: as the devices produce them. */
  rate: number | null
  /** Heartbeat interval in model seconds. */
  heartbeatS: number
  seed: number
  /** Multiplies the chances of faults, silent spells, moves, rescues and expiring pads. */
  events: number
  workers: number
  /** Progress line every this many seconds. */
  progressS: number
  /** Chance per cabinet and run that its door opens (by `events` too); default 0.15. */
  doorChance?: number
  /** How long a door stays open, real seconds (so a console shows it); default 60. */
  doorOpenS?: number
}

/** The run's model clock and devices, for what runs beside them (the calls and the responders' phones). */
export type FleetControl = {
  /** The model's now (Unix ms): the run's start plus the time elapsed times the speed. */
  simNow(): number
  simStart: number
  simEnd: number
  /** Model seconds per real second. */
  speed: number
  /** The real moment (Unix ms) a model moment comes at. */
  real(at: number): number
  /**
   * Uses AED `sn` on a patient from model moment `at` (its usage steps and ECG upload); false when
   * this run does not drive that device.
   */
  rescue(sn: string, at: number, shocks: number): boolean
}

/** Something that runs beside the fleet on its clock, stopped before the fleet drains. */
export type Companion = { stop(): Promise<void> }

type Queued = { message: Envelope } | { upload: { rescueEventId: string; body: Buffer; at: number } }

type Live = {
  dev: { sn: string; secret: string }
  model: DeviceModel | CabinetModel
  queue: Queued[]
  busy: boolean
  /** In the ready list. */
  listed: boolean
  /** Not before (ms, performance clock): backing off after an error. */
  retryAt: number
}

export async function runFleet(
  devices: FleetDevice[],
  transport: Transport,
  o: RunOptions,
  cabinets: FleetCabinet[] = [],
  companion?: (fleet: FleetControl) => Companion,
): Promise<Stats> {
  const stats = createStats()
  const bucket = tokenBucket(o.rate)
  const realStart = Date.now()
  const simStart = realStart
  const simNow = () => simStart + (Date.now() - realStart) * o.speed
  /** A model moment as the device's clock shows it: the run is compressed by the speed. */
  const real = (at: number) => Math.round(realStart + (at - simStart) / o.speed)
  const runMs = o.minutes * 60_000
  const simEnd = simStart + runMs * o.speed
  // A new boot per run, so ids and (boot, seq) never repeat an earlier run's.
  const boot = Math.floor(realStart / 1000)
  const rng = seededRng(o.seed)

  const reportIntervalS = Math.min(7 * 86400, Math.max(60, Math.round(o.heartbeatS / o.speed)))
  /** A sender's first report, within the run's first seconds. */
  const firstAt = () => simStart + Math.round(rng.next() * Math.min(10_000, runMs / 10) * o.speed)
  /** A sender as the run drives it: nothing queued or sent yet. */
  const idle = (dev: Live['dev'], model: Live['model']): Live => ({
    dev,
    queue: [],
    busy: false,
    listed: false,
    retryAt: 0,
    model,
  })

  const live: Live[] = devices.map((dev, i) => {
    const dRng = seededRng(o.seed + i * 7919)
    return idle(
      dev,
      createDeviceModel(dev, {
        start: firstAt(),
        boot,
        seed: dRng.int(1, 2 ** 31),
        heartbeatS: o.heartbeatS,
        reportIntervalS,
        battery: dRng.int(40, 100),
        drainPerDay: dRng.between(0.1, 0.5),
        episodes: [
          ...currentEpisodes(dev, dRng, simStart),
          ...randomEpisodes(dRng, simStart, simEnd, scaledRates(o.events), dev.installation !== null),
        ],
      }),
    )
  })
  const doorChance = Math.min(1, (o.doorChance ?? 0.15) * o.events)
  const doorOpenMs = (o.doorOpenS ?? 60) * 1000 * o.speed
  cabinets.forEach((cab, i) => {
    const cRng = seededRng(o.seed + 104_729 + i * 7919)
    live.push(
      idle(
        cab,
        createCabinetModel(cab, {
          start: firstAt(),
          boot,
          seed: cRng.int(1, 2 ** 31),
          statusS: o.heartbeatS,
          reportIntervalS,
          battery: cRng.int(50, 100),
          drainPerDay: cRng.between(0.05, 0.3),
          doors: randomDoors(cRng, simStart, simEnd, doorChance, doorOpenMs),
        }),
      ),
    )
  })
  const bySn = new Map(live.map((l) => [l.dev.sn, l]))

  const stamp = (m: Envelope): Envelope => {
    const data =
      typeof m.data.event_time === 'number' ? { ...m.data, event_time: real(m.data.event_time) } : m.data
    return { ...m, ts: real(m.ts), data }
  }
  const onCommand = (dev: { sn: string }, cmd: Command) => {
    const l = bySn.get(dev.sn)
    if (!l) return
    stats.commands++
    for (const m of l.model.command(simNow(), cmd)) l.queue.push({ message: stamp(m) })
  }
  await transport.start([...devices, ...cabinets], onCommand)

  const ready: Live[] = []
  const produce = () => {
    const now = simNow()
    for (const l of live) {
      for (const out of l.model.advance(Math.min(now, simEnd))) {
        l.queue.push(out.kind === 'message' ? { message: stamp(out.message) } : { upload: out })
      }
      if (l.queue.length && !l.busy && !l.listed) {
        l.listed = true
        ready.push(l)
      }
    }
  }

  async function serve(l: Live) {
    const head = l.queue[0]
    if ('upload' in head) {
      // Only AEDs upload rescue files.
      const model = l.model
      if (!('fileMessage' in model)) return void l.queue.shift()
      await bucket.take(1)
      const r = await transport.upload(l.dev, head.upload.rescueEventId, head.upload.body)
      if ('fileId' in r) {
        stats.uploads++
        l.queue[0] = {
          message: stamp(model.fileMessage(head.upload.at, head.upload.rescueEventId, r.fileId)),
        }
      } else if (r.ok === false && r.refused) {
        stats.refused++
        l.queue.shift()
      } else {
        stats.errors++
        l.retryAt = performance.now() + 1000
      }
      return
    }
    const batch: Envelope[] = []
    for (const q of l.queue) {
      if (!('message' in q) || batch.length >= transport.maxBatch) break
      batch.push(q.message)
    }
    await bucket.take(batch.length)
    const t0 = performance.now()
    stats.sent += batch.length
    const r = await transport.send(l.dev, batch)
    const ms = performance.now() - t0
    if (r.ok) {
      stats.acked += r.acked.length + (r.stale?.length ?? 0)
      stats.duplicates += r.duplicates.length
      stats.refused += r.refused?.length ?? 0
      if (r.refused?.length) console.error(`refused ${l.dev.sn}: ${JSON.stringify(r.refused).slice(0, 300)}`)
      stats.latency(ms, r.acked.length + r.duplicates.length)
      l.queue.splice(0, batch.length)
      for (const cmd of r.cmds) onCommand(l.dev, cmd)
    } else if (r.refused) {
      stats.refused += batch.length
      if (stats.refused <= batch.length) console.error(`refused ${l.dev.sn}: ${r.error}`)
      l.queue.splice(0, batch.length)
    } else {
      // Not acknowledged: sent again later with the same ids (the server answers duplicates).
      stats.errors += batch.length
      if (stats.errors <= batch.length * 3) console.error(`error ${l.dev.sn}: ${r.error}`)
      l.retryAt = performance.now() + 1000
    }
  }

  let stopping = false
  const workers = Array.from({ length: o.workers }, async () => {
    while (!stopping || ready.length) {
      const i = ready.findIndex((l) => l.retryAt <= performance.now())
      if (i < 0) {
        await new Promise((r) => setTimeout(r, 20))
        continue
      }
      const [l] = ready.splice(i, 1)
      l.listed = false
      l.busy = true
      try {
        await serve(l)
      } catch (e) {
        stats.errors++
        console.error(`device ${l.dev.sn}: ${(e as Error).message}`)
        l.retryAt = performance.now() + 1000
      }
      l.busy = false
      if (l.queue.length && !l.listed) {
        l.listed = true
        ready.push(l)
      }
    }
  })

  const queued = () => live.reduce((n, l) => n + l.queue.length, 0)
  const tick = setInterval(produce, 100)
  const progress = setInterval(() => console.log(stats.line(queued())), o.progressS * 1000)
  produce()
  const beside = companion?.({
    simNow,
    simStart,
    simEnd,
    speed: o.speed,
    real,
    rescue(sn, at, shocks) {
      const model = bySn.get(sn)?.model
      if (!model || !('rescue' in model)) return false
      model.rescue(at, shocks)
      return true
    },
  })
  await new Promise((r) => setTimeout(r, runMs))
  await beside?.stop()
  clearInterval(tick)
  produce()
  // Drain what is queued, for at most 15 seconds.
  const drainUntil = performance.now() + 15_000
  while (queued() > 0 && performance.now() < drainUntil) await new Promise((r) => setTimeout(r, 100))
  stopping = true
  ready.length = 0
  await Promise.all(workers)
  clearInterval(progress)
  return stats
}
