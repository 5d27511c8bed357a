// What the call bench's phases hand each other.

export type CallsOptions = {
  /** Calls a second in all. */
  calls: number
  /** How they come in: the open API (integrators), the console's 登记呼救 (members), or both in turn. */
  via: 'open-api' | 'console' | 'mixed'
  /** Device messages a second (the alarm bench's load). */
  rate: number
  consoles: number
  minutes: number
  devices: number
  batch: number
  sockets: number
  graceMs: number
  instances: number
  /** The PostgreSQL server the bench database is created in; null: PGlite. */
  adminUrl: string | null
  keep: boolean
  profile: string | undefined
}

/** An installed AED's place: calls are made around it. */
export type Place = { index_link: string; lat: number; lon: number; location: string }

/** One call the bench sent. */
export type SentCall = {
  n: number
  via: 'open-api' | 'console'
  /** The demo organisation that owns it, and its path. */
  orgKey: string
  indexLink: string
  /** Date.now() when the request left. */
  sentAt: number
  /** The call's id from the answer. */
  id: number | null
  ackMs: number | null
  error: string | null
  /** Consoles in scope (open when it was sent). */
  expected: number[]
}

/** The alarm frames the consoles got for calls (event_type 1), by the call's id. */
export type CallAlarms = {
  /** By call id: by console, the arrival time of each frame (Date.now()). */
  frames: Map<number, Map<number, number[]>>
  /** By call id: the push id of its first frame. */
  pushIds: Map<number, number>
  /** Frames with escalation_level > 0 (unconfirmed alarms pushed again). */
  escalations: number
  /** Alarm frames of something else (a rescue). */
  other: number
}
