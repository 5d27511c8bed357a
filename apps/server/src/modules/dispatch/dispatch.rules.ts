import type { AlertRole } from '@aed/contracts/dispatch'

// Who is sent where: pure rules over distances, so the choice is tested without a database.

/** A point (GCJ-02). */
export type Point = { lat: number; lon: number }

/** Metres between two points on the mean sphere (haversine). */
export function metres(a: Point, b: Point): number {
  const R = 6371008.8
  const rad = Math.PI / 180
  const dLat = (b.lat - a.lat) * rad
  const dLon = (b.lon - a.lon) * rad
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)))
}

/** The settings a wave reads (the organisation's, snapshotted when the dispatch started). */
export type WaveSettings = {
  dispatch_patient_pct: number
  dispatch_aed_detour_m: number
  dispatch_speed_mps: number
}

/** A responder who may be alerted, where they are now. */
export type Candidate = Point & { responder_id: number }

/** A ready AED, not yet given to another responder of this dispatch. */
export type FreeAed = Point & { device_id: number }

/** One alert to send: who, the role, the AED for role aed, the way's length and the walking time. */
export type PlannedAlert = {
  responder_id: number
  role: AlertRole
  device_id: number | null
  distance: number
  eta_s: number
}

/**
 * The next `count` alerts of a dispatch, from candidates nearest the patient first. The alerts go
 * to the patient while their share of all the dispatch's alerts (`sent`: those already sent, by
 * role) is below dispatch_patient_pct; the others fetch the free AED whose detour (the way by it
 * less the way straight there) is smallest, when it is within dispatch_aed_detour_m, each AED to
 * one responder; with no such AED a responder goes straight to the patient.
 */
export function planWave(
  patient: Point,
  candidates: readonly Candidate[],
  aeds: readonly FreeAed[],
  s: WaveSettings,
  count: number,
  sent: { patient: number; aed: number },
): PlannedAlert[] {
  const free = [...aeds]
  const byRole = { ...sent }
  const eta = (m: number) => Math.round(m / s.dispatch_speed_mps)
  const ordered = [...candidates]
    .map((c) => ({ c, direct: metres(c, patient) }))
    .sort((a, b) => a.direct - b.direct || a.c.responder_id - b.c.responder_id)
  const out: PlannedAlert[] = []
  for (const { c, direct } of ordered.slice(0, count)) {
    const total = byRole.patient + byRole.aed
    const patientShort = byRole.patient < Math.ceil(((total + 1) * s.dispatch_patient_pct) / 100)
    let best: { i: number; way: number } | null = null
    if (!patientShort) {
      free.forEach((a, i) => {
        const way = metres(c, a) + metres(a, patient)
        if (way - direct <= s.dispatch_aed_detour_m && (!best || way < best.way)) best = { i, way }
      })
    }
    const chosen = best as { i: number; way: number } | null
    if (chosen) {
      const [aed] = free.splice(chosen.i, 1)
      byRole.aed++
      const distance = Math.round(chosen.way)
      out.push({
        responder_id: c.responder_id,
        role: 'aed',
        device_id: aed.device_id,
        distance,
        eta_s: eta(distance),
      })
    } else {
      byRole.patient++
      const distance = Math.round(direct)
      out.push({
        responder_id: c.responder_id,
        role: 'patient',
        device_id: null,
        distance,
        eta_s: eta(distance),
      })
    }
  }
  return out
}

/** The nearest free AED to take over from one that stopped being ready, within the detour; or null. */
export function replacementAed<A extends FreeAed>(
  responder: Point,
  patient: Point,
  aeds: readonly A[],
  detour: number,
): A | null {
  const direct = metres(responder, patient)
  let best: { a: A; way: number } | null = null
  for (const a of aeds) {
    const way = metres(responder, a) + metres(a, patient)
    if (way - direct <= detour && (!best || way < best.way)) best = { a, way }
  }
  return best?.a ?? null
}
