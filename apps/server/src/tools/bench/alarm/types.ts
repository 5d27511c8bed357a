import type WebSocket from 'ws'
import type { FleetDevice } from '../../fleet/fleet-api.ts'
import type { Envelope } from '../../fleet/model.ts'

// What the alarm bench's phases hand each other.

export type AlarmOptions = {
  rate: number
  consoles: number
  minutes: number
  devices: number
  batch: number
  sockets: number
  rescueEveryMs: number
  graceMs: number
  /** The PostgreSQL server the bench database is created in. */
  adminUrl: string
  keep: boolean
  /** Where each server writes its CPU profile, if anywhere. */
  profile: string | undefined
}

/** A device made for the bench, with its secret and its organisation's scope. */
export type BenchDevice = {
  sn: string
  secret: string
  agencyKey: string
  indexLink: string
  seq: number
  busy: boolean
}

/** The bench's devices as the simulator's transports send for them, and their envelopes. */
export type Devices = {
  all: BenchDevice[]
  fleet: (d: BenchDevice) => FleetDevice
  envelope: (d: BenchDevice, type: string, data: Record<string, unknown>) => Envelope
}

export type Rescue = {
  n: number
  sn: string
  indexLink: string
  agencyKey: string
  sentAt: number
  /** The usage message's id (its inbox row tells when the server took it). */
  msgId: string
  ackMs: number | null
  error: string | null
  /** Consoles in scope (open when it was sent) and when each got the alarm. */
  expected: Set<number>
  got: Map<number, number>
  /** The alarm's push id, from the first frame of it. */
  pushId: number | null
  /**
   * When the alarm first reached a console of an instance: the largest push id each console of
   * that instance still waiting for it had already been sent (the hub drops a push whose id is
   * not above the console's last one).
   */
  aheadOf: Map<number, number>
}

export type ConsoleWs = {
  i: number
  ws: WebSocket
  instance: 0 | 1
  phone: string
  indexLink: string
  open: boolean
  closedCode: number | null
  frames: Record<number, number>
  /** The largest push id received. */
  maxId: number
}

/** The rescues sent and what the consoles made of their alarms. */
export type Alarms = {
  rescues: Rescue[]
  bySn: Map<string, Rescue>
  /** Alarm frames a console got for a rescue outside its scope. */
  outOfScope: number
  /** Alarm frames of no rescue the bench sent. */
  unknown: number
  duplicates: number
  escalations: number
}
