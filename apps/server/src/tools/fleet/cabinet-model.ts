import {
  type Command,
  createAgenda,
  type Envelope,
  type Outgoing,
  type Rng,
  seededRng,
  toWgs84,
} from './model.ts'

// The behaviour of one rescue cabinet as a pure, seeded model, like the AED's (model.ts): `hello`,
// a `cabinet_status` self-check every interval, and door episodes: the door opens (`door` 1 and a
// self-check saying so), stays open a while and closes (`door` 0); sometimes the AED leaves with
// it (`aed_present` false) and comes back later through the door again. It answers `unlock`
// (the door opens, then closes) and `siren`. See docs/device-protocol.md.

const HOUR = 3600_000

/** What the model knows of the cabinet. */
export type CabinetProfile = {
  sn: string
  fwVersion: string
  /** Where it hangs (GCJ-02, as the registry stores it); null when it never reported a position. */
  installation: { lat: number; lon: number } | null
  /** Whether an AED is bound (and so inside at the start). */
  bound: boolean
}

/** A door opening: open for `openMs`; with `backAt` the AED leaves then and returns at that moment. */
export type DoorEpisode = { at: number; openMs: number; backAt?: number }

export type CabinetOptions = {
  start: number
  boot: number
  seed: number
  /** How often a self-check goes out, model seconds. */
  statusS: number
  /** What `hello` declares (real seconds: the server's offline deadline). */
  reportIntervalS: number
  battery: number
  drainPerDay: number
  doors: DoorEpisode[]
}

type Item =
  | { at: number; what: 'hello' | 'status' }
  | { at: number; what: 'door'; open: 0 | 1; aed?: boolean }

export type CabinetModel = ReturnType<typeof createCabinetModel>

/** One cabinet's behaviour: `advance(to)` answers what it sends up to `to`, in order. */
export function createCabinetModel(profile: CabinetProfile, opts: CabinetOptions) {
  const rng = seededRng(opts.seed)
  let seq = 0
  let door: 0 | 1 = 0
  let aedPresent = profile.bound
  const altitude = rng.int(5, 60)
  const { schedule, runDue } = createAgenda<Item>()
  const battery = (t: number) =>
    Math.max(0, Math.round(opts.battery - (opts.drainPerDay * (t - opts.start)) / (24 * HOUR)))
  const position = profile.installation ? toWgs84(profile.installation.lat, profile.installation.lon) : {}

  const message = (
    at: number,
    type: string,
    data: Record<string, unknown>,
  ): Extract<Outgoing, { kind: 'message' }> => {
    seq++
    const id = `c${opts.boot}-${seq}`
    return { kind: 'message', at, message: { v: 1, id, seq, boot: opts.boot, ts: at, type, data } }
  }
  const status = (at: number) =>
    message(at, 'cabinet_status', {
      door_status: door,
      battery_power: battery(at),
      fw_version: profile.fwVersion,
      ...position,
      ...(profile.installation ? { altitude } : {}),
      aed_present: aedPresent,
    })
  /** The door opens now, closes after `openMs`; `aed` is whether the AED is inside once it closes. */
  const openDoor = (at: number, openMs: number, aed = aedPresent) => {
    schedule({ at, what: 'door', open: 1, aed })
    schedule({ at: at + openMs, what: 'door', open: 0, aed })
  }

  schedule({ at: opts.start, what: 'hello' })
  schedule({ at: opts.start + Math.round(rng.between(0.02, 1) * opts.statusS * 1000), what: 'status' })
  for (const d of opts.doors) {
    if (d.backAt === undefined || !profile.bound) openDoor(d.at, d.openMs)
    else {
      openDoor(d.at, d.openMs, false)
      openDoor(d.backAt, d.openMs, true)
    }
  }

  function handle(item: Item): Outgoing[] {
    switch (item.what) {
      case 'hello':
        return [
          message(item.at, 'hello', {
            model: 'CABINET',
            fw_version: profile.fwVersion,
            report_interval_s: opts.reportIntervalS,
          }),
          status(item.at + 1000),
        ]
      case 'status':
        schedule({ at: item.at + opts.statusS * 1000 * rng.between(0.97, 1.03), what: 'status' })
        return [status(item.at)]
      case 'door': {
        if (item.open === door) return []
        door = item.open
        // Taken out (or put back) while the door stands open: the self-check a few seconds in says so.
        const out: Outgoing[] = [message(item.at, 'door', { door_status: door })]
        if (door === 1 && item.aed !== undefined && item.aed !== aedPresent) {
          aedPresent = item.aed
          out.push(status(item.at + 5000))
        } else if (door === 0) out.push(status(item.at + 1000))
        return out
      }
    }
  }

  return {
    sn: profile.sn,
    profile,
    advance: (to: number): Outgoing[] => runDue(to, handle),
    /** Whether the door stands open now (as last sent). */
    doorOpen: () => door === 1,
    /** Carries out a command: `unlock` opens the door for a minute, `siren` sounds; then the `ack`. */
    command(at: number, cmd: Command): Envelope[] {
      let ok = true
      let error: string | undefined
      const out: Outgoing[] = []
      if (cmd.name === 'unlock') openDoor(at + 1000, 60_000)
      else if (cmd.name === 'selftest') out.push(status(at))
      else if (cmd.name !== 'siren') [ok, error] = [false, `unsupported: ${cmd.name}`]
      out.push(message(at, 'ack', { cmd_id: cmd.cmd_id, ok, ...(error ? { error } : {}) }))
      return out.map((o) => (o as Extract<Outgoing, { kind: 'message' }>).message)
    },
  }
}

/**
 * Door openings of a run within [start, end): by `chance` one (now and then two), open for
 * `openMs` give or take a third; a third of those of a bound cabinet take the AED away, back
 * later in the run.
 */
export function randomDoors(
  rng: Rng,
  start: number,
  end: number,
  chance: number,
  openMs: number,
): DoorEpisode[] {
  const span = end - start
  const doors: DoorEpisode[] = []
  const count = rng.chance(chance) ? (rng.chance(0.2) ? 2 : 1) : 0
  for (let i = 0; i < count; i++) {
    const at = start + span * rng.between(0.05 + i * 0.45, 0.4 + i * 0.45)
    const open = Math.round(openMs * rng.between(0.7, 1.3))
    const back = at + open + span * rng.between(0.1, 0.25)
    doors.push(rng.chance(1 / 3) && back < end ? { at, openMs: open, backAt: back } : { at, openMs: open })
  }
  return doors
}
