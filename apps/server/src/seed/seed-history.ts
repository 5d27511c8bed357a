import { parseDeviceMessage } from '@aed/contracts/device-protocol'
import { sql } from 'drizzle-orm'
import type { AppContext } from '../context.ts'
import { many } from '../db/sql.ts'
import { outboxHandlers } from '../jobs/outbox.ts'
import type { Clock } from '../lib/clock.ts'
import type { DeviceRow } from '../modules/device/device.repository.ts'
import { overdueDevices } from '../modules/engine/engine.repository.ts'
import { type Accepted, applyCheck, ingest } from '../modules/engine/engine.service.ts'
import { drainOutbox, type OutboxHandler } from '../modules/engine/outbox.ts'
import { receiveFile } from '../modules/gateway/gateway.service.ts'
import type { DeviceIdentity } from '../plugins/auth/device.ts'
import {
  createDeviceModel,
  type DeviceModel,
  type Envelope,
  type Episode,
  faultCodes,
  type Rng,
  seededRng,
} from '../tools/fleet/model.ts'

// The demo network's past: a few weeks of the registered devices' self-tests, heartbeats,
// faults, offline spells, moves and rescues, made by the fleet simulator's behaviour model and
// applied by the real engine (ingest, and the offline sweep's applyCheck) on a clock that
// moves through that time. Statuses, events (open and closed), detections and rescues all come
// out of the engine as they would have, had the devices reported then.

const HOUR = 3600_000
const DAY = 24 * HOUR

export type HistoryOptions = {
  /** How far back the history starts. */
  days?: number
  /** Only these devices (default: every registered device). */
  deviceIds?: number[]
  /** Heartbeat interval in history, hours. */
  heartbeatHours?: number
  /** How far the clock moves at a time, minutes. */
  stepMinutes?: number
  /** Rescues in the whole network over the history. */
  rescues?: number
  seed?: number
}

/**
 * Whether the first start seeds the history: not under the test runner (its servers and the e2e
 * server start on empty folders and must start fast), not with SEED_HISTORY=false.
 */
export function historyWanted(
  config: { SEED_HISTORY: boolean },
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  return config.SEED_HISTORY && !env.VITEST
}

export type HistoryResult = { devices: number; messages: number; offline: number; ms: number }

/** A registered device as its history needs it: the registry's own columns, its place and dates. */
type Row = Pick<DeviceRow, 'id' | 'device_sn' | 'model' | 'fw_version' | 'status' | 'battery'> & {
  lat: number
  lon: number
  pads: string
  battery_expire: string
  registered_ms: number
}

/**
 * What happens to one device over [start, end): the seeded status is where it should end up
 * (offline: silent since a day or more; fault: failing its daily self-tests for a day or more;
 * offset: carried away and not brought back), and some devices have a past episode that ended (a
 * fault repaired and inspected, an offline spell, a move and return); batteries run down as they
 * do, to the level the seed gave them.
 */
function plan(
  r: Row,
  rng: Rng,
  w: { start: number; end: number; intervalMs: number; rescueAt: number | null },
): Episode[] {
  const { start, end } = w
  const episodes: Episode[] = []
  // Silent long enough for the deadline to pass: three reports missed, the grace, one more.
  const offlineAfter = 4 * w.intervalMs + HOUR
  const span = end - start
  const within = (from: number, to: number) => from + rng.next() * Math.max(0, to - from)
  if (r.status === 4) {
    episodes.push({
      kind: 'silent',
      from: Math.max(start + HOUR, end - within(offlineAfter, 6 * DAY)),
      to: null,
    })
  }
  if (r.status === 2)
    // Long enough for a daily self-test to have found it.
    episodes.push({ kind: 'fault', from: end - within(26 * HOUR, 9 * DAY), to: null, codes: faultCodes(rng) })
  if (r.status === 3) {
    episodes.push({
      kind: 'away',
      from: end - within(3 * HOUR, 5 * DAY),
      to: null,
      distanceKm: rng.between(2, 30),
      bearingDeg: rng.between(0, 360),
    })
  }
  // Past episodes, over by a few days before the end.
  if (span > 5 * DAY) {
    const past = () => within(start + DAY, end - 9 * DAY)
    if (rng.chance(0.12)) {
      const from = past()
      episodes.push({ kind: 'fault', from, to: from + within(DAY, 8 * DAY), codes: faultCodes(rng) })
    }
    if (r.status !== 4 && rng.chance(0.1)) {
      const from = past()
      episodes.push({ kind: 'silent', from, to: from + within(offlineAfter, 3 * DAY) })
    }
    if (r.status !== 3 && rng.chance(0.05)) {
      const from = past()
      episodes.push({
        kind: 'away',
        from,
        to: from + within(2 * HOUR, 20 * HOUR),
        distanceKm: rng.between(2, 15),
        bearingDeg: rng.between(0, 360),
      })
    }
  }
  if (w.rescueAt !== null) episodes.push({ kind: 'rescue', at: w.rescueAt, shocks: rng.int(0, 3) })
  return episodes
}

/** Registered devices with their installation (the seeded status is the end the history aims for). */
async function registered(ctx: AppContext, ids?: number[]): Promise<Row[]> {
  return many<Row>(
    ctx.db,
    sql`
    SELECT d.id::int, d.device_sn, d.model, d.fw_version, d.status::int, d.battery::int, i.lat, i.lon,
      i.electrode_sheet_expire::text AS pads, i.battery_expire::text AS battery_expire,
      (extract(epoch FROM i.register_time) * 1000)::float8 AS registered_ms
    FROM devices d JOIN installations i ON i.id = d.installation_id AND i.removed_at IS NULL
    WHERE d.deleted_at IS NULL ${
      ids
        ? sql`AND d.id IN (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})`
        : sql``
    }
    ORDER BY d.id`,
  )
}

/**
 * Runs the demo network's history through the engine, ending now (ctx.clock). Heartbeats every
 * few hours, a self-test a day, and each device's episodes; the offline sweep runs as the clock
 * moves, so offline spells open and close as they would. Answers what it did.
 */
export async function seedHistory(ctx: AppContext, opts: HistoryOptions = {}): Promise<HistoryResult> {
  const t0 = performance.now()
  const days = opts.days ?? 21
  const heartbeatS = (opts.heartbeatHours ?? 8) * 3600
  const stepMs = (opts.stepMinutes ?? 180) * 60_000
  const end = ctx.clock.now().getTime()
  const start = end - days * DAY
  const rows = await registered(ctx, opts.deviceIds)
  const rng = seededRng(opts.seed ?? 20261123)

  // A few rescues on normal devices, none in the last hours (all ended by now).
  const rescueAt = new Map<number, number>()
  const normal = rows.filter((r) => r.status === 0 || r.status === 1)
  for (let i = 0; i < Math.min(opts.rescues ?? Math.ceil(rows.length / 50), normal.length); i++) {
    const r = rng.pick(normal)
    const from = Math.max(start, r.registered_ms) + 2 * HOUR
    if (end - 3 * HOUR > from) rescueAt.set(r.id, from + rng.next() * (end - 3 * HOUR - from))
  }

  type Sim = { row: Row; model: DeviceModel; sender: DeviceIdentity }
  const sims: Sim[] = rows.map((r) => {
    const dRng = seededRng((opts.seed ?? 20261123) ^ (r.id * 2654435761))
    const begin = Math.max(start, Math.min(r.registered_ms, end - HOUR))
    const drain = dRng.between(0.05, 0.35)
    const endBattery = r.battery ?? dRng.int(40, 100)
    const model = createDeviceModel(
      {
        sn: r.device_sn,
        model: r.model || 'AED',
        fwVersion: r.fw_version ?? 'V1.0.0',
        installation: { lat: r.lat, lon: r.lon },
        padsExpire: r.pads,
        batteryExpire: r.battery_expire,
      },
      {
        start: begin,
        boot: 1,
        seed: dRng.int(1, 2 ** 31),
        heartbeatS,
        reportIntervalS: heartbeatS,
        battery: Math.min(100, endBattery + (drain * (end - begin)) / DAY),
        drainPerDay: drain,
        episodes: plan(r, dRng, {
          start: begin,
          end,
          intervalMs: heartbeatS * 1000,
          rescueAt: rescueAt.get(r.id) ?? null,
        }),
        // Some models test themselves daily, most weekly (a device failing now: daily).
        selftestEveryDays: r.status === 2 || dRng.chance(0.1) ? 1 : 7,
        bootReport: false,
      },
    )
    return { row: r, model, sender: { kind: 'aed', id: r.id, sn: r.device_sn } }
  })

  let now = start
  const clock: Clock = { now: () => new Date(now) }
  // The history's outbox is dealt with once, at its end (below), not drained on every commit.
  const hctx: AppContext = { ...ctx, clock, drainOnCommit: false }
  let messages = 0
  const accept = (m: Envelope): Accepted => {
    const p = parseDeviceMessage(m)
    if (!p.ok) throw new Error(`seed history: ${m.type} ${p.problem.field} ${p.problem.reason}`)
    return { known: p.known, message: p.message }
  }

  for (let t = start + stepMs; t < end + stepMs; t += stepMs) {
    now = Math.min(t, end)
    // Deadlines missed by now: offline since the deadline (as the sweep job does).
    for (const d of await overdueDevices(ctx.db, new Date(now), 10_000))
      await applyCheck(hctx, d.device_id, 'deadline')
    await Promise.all(
      sims.map(async (s) => {
        const batch: Accepted[] = []
        for (const o of s.model.advance(now)) {
          if (o.kind === 'message') batch.push(accept(o.message))
          else {
            // The ECG goes where the gateway puts it, then the `file` message names it.
            if (batch.length) {
              const r = await ingest(hctx, s.sender, batch.splice(0), 'https')
              messages += r.filter((x) => x.outcome === 'applied').length
            }
            const f = await receiveFile(
              hctx,
              s.sender,
              { kind: 'ecg', rescue_event_id: o.rescueEventId },
              o.body,
            )
            batch.push(accept(s.model.fileMessage(o.at, o.rescueEventId, f.file_id)))
          }
        }
        if (batch.length) {
          const r = await ingest(hctx, s.sender, batch, 'https')
          messages += r.filter((x) => x.outcome === 'applied').length
        }
      }),
    )
  }
  // What the history told is past: no SMS, webhook or live push for it now. Its messages
  // (offsets, rescues) are written as the messages of those days, but nobody is paged for them:
  // their escalation time has long gone.
  while ((await drainOutbox(hctx, { message: outboxHandlers.message as OutboxHandler })) > 0) {}
  await ctx.db.execute(sql`
    UPDATE outbox SET done_at = create_time, last_error = 'demo history'
    WHERE done_at IS NULL AND topic IN ('sms', 'webhook', 'live') AND create_time <= ${new Date(end).toISOString()}::timestamptz`)
  await ctx.db.execute(
    sql`UPDATE messages SET escalate_at = NULL WHERE msg_time <= ${new Date(end).toISOString()}::timestamptz`,
  )
  await ctx.db.execute(
    sql`DELETE FROM live_pushes WHERE create_time <= ${new Date(end).toISOString()}::timestamptz`,
  )
  const offline = (
    await many<{ n: number }>(ctx.db, sql`SELECT count(*)::int AS n FROM device_states WHERE offline`)
  )[0].n
  return { devices: sims.length, messages, offline, ms: Math.round(performance.now() - t0) }
}
