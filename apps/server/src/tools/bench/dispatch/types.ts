// The dispatch bench's shared shapes.

/** A point (GCJ-02). */
export type Place = { lat: number; lon: number }

/** Where calls come from: a city full of AEDs and responders, sparse places, AEDs with no one near. */
export type Areas = { city: Place[]; sparse: Place[]; aedsOnly: Place[] }

/** A call the bench recorded through the API, and what the console saw of its dispatch. */
export type SentCall = {
  n: number
  /** paced (one at a time) or burst (all at once), or warm-up. */
  kind: 'warm-up' | 'paced' | 'burst'
  area: keyof Areas
  place: Place
  instance: number
  /** ms since the epoch: the POST sent, its answer read (the call committed before it). */
  sentAt: number
  answeredAt: number | null
  id: number | null
  error: string | null
  /** The first live frame of its dispatch (data_type 14) by kind: started, alerted. */
  frames: Map<string, number>
}
