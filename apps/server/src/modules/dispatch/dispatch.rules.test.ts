import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { metres, planWave, replacementAed } from './dispatch.rules.ts'

const patient = { lat: 30.27, lon: 120.15 }
/** A point `north` and `east` metres from the patient. */
const at = (north: number, east: number) => ({
  lat: patient.lat + north / 111_195,
  lon: patient.lon + east / (111_195 * Math.cos((patient.lat * Math.PI) / 180)),
})
const s = { dispatch_patient_pct: 33, dispatch_aed_detour_m: 600, dispatch_speed_mps: 2.3 }

describe('dispatch rules', () => {
  it('measures metres on the ground', () => {
    expect(metres(patient, at(1000, 0))).toBeCloseTo(1000, -1)
    expect(metres(patient, at(0, 1000))).toBeCloseTo(1000, -1)
  })

  it('sends the nearest to the patient and the next by an AED with a small detour, each AED once', () => {
    const people = [100, 200, 300, 400, 500].map((m, i) => ({ responder_id: i + 1, ...at(m, 0) }))
    const aeds = [
      { device_id: 71, ...at(250, 50) },
      { device_id: 72, ...at(420, -40) },
      { device_id: 73, ...at(0, 3000) }, // far off every way
    ]
    const plan = planWave(patient, people, aeds, s, 5, { patient: 0, aed: 0 })
    expect(plan.map((p) => [p.responder_id, p.role, p.device_id])).toEqual([
      [1, 'patient', null],
      [2, 'aed', 71],
      [3, 'aed', 72],
      [4, 'patient', null],
      [5, 'patient', null],
    ])
    // 100 m straight: 43 s at 2.3 m/s.
    expect(plan[0]).toMatchObject({ distance: 100, eta_s: 43 })
    expect(plan[1].distance).toBeGreaterThan(300)
  })

  it('sends everyone to the patient when no AED is near, and counts the roles already sent', () => {
    const people = [1, 2, 3].map((i) => ({ responder_id: i, ...at(i * 100, 0) }))
    expect(planWave(patient, people, [], s, 3, { patient: 0, aed: 0 }).map((p) => p.role)).toEqual([
      'patient',
      'patient',
      'patient',
    ])
    // Two sent to the patient already out of three: the next goes by an AED.
    const aed = [{ device_id: 9, ...at(150, 0) }]
    expect(planWave(patient, people.slice(0, 1), aed, s, 1, { patient: 2, aed: 1 })[0].role).toBe('aed')
  })

  it('never plans more than asked, nor one responder or AED twice', () => {
    const point = fc.record({
      n: fc.integer({ min: -2000, max: 2000 }),
      e: fc.integer({ min: -2000, max: 2000 }),
    })
    fc.assert(
      fc.property(
        fc.array(point, { maxLength: 40 }),
        fc.array(point, { maxLength: 10 }),
        fc.integer({ min: 0, max: 30 }),
        (ps, as, n) => {
          const people = ps.map((p, i) => ({ responder_id: i + 1, ...at(p.n, p.e) }))
          const aeds = as.map((a, i) => ({ device_id: i + 1, ...at(a.n, a.e) }))
          const plan = planWave(patient, people, aeds, s, n, { patient: 0, aed: 0 })
          expect(plan.length).toBe(Math.min(n, people.length))
          expect(new Set(plan.map((p) => p.responder_id)).size).toBe(plan.length)
          const used = plan.flatMap((p) => (p.device_id === null ? [] : [p.device_id]))
          expect(new Set(used).size).toBe(used.length)
          for (const p of plan) expect(p.role === 'aed').toBe(p.device_id !== null)
        },
      ),
    )
  })

  it('replaces an AED by the nearest within the detour, or none', () => {
    const r = at(300, 0)
    const near = { device_id: 1, ...at(200, 30) }
    const far = { device_id: 2, ...at(0, 2500) }
    expect(replacementAed(r, patient, [far, near], 600)?.device_id).toBe(1)
    expect(replacementAed(r, patient, [far], 600)).toBeNull()
  })
})
