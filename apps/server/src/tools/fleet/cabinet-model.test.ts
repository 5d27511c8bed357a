import { parseDeviceMessage } from '@aed/contracts/device-protocol'
import { describe, expect, it } from 'vitest'
import { type CabinetOptions, createCabinetModel, randomDoors } from './cabinet-model.ts'
import { type Envelope, seededRng } from './model.ts'

const MIN = 60_000
const start = Date.UTC(2026, 10, 22, 2, 0, 0)
const installation = { lat: 30.2676, lon: 120.1345 }

function model(doors: CabinetOptions['doors'] = [], bound = true) {
  return createCabinetModel(
    { sn: 'CB26100053', fwVersion: 'C1.1.0', installation, bound },
    { start, boot: 7, seed: 3, statusS: 3600, reportIntervalS: 60, battery: 90, drainPerDay: 0.2, doors },
  )
}

const messages = (m: ReturnType<typeof model>, to: number): Envelope[] =>
  m.advance(to).flatMap((o) => (o.kind === 'message' ? [o.message] : []))

describe('the cabinet model', () => {
  it('says hello and sends valid self-checks with its WGS-84 position, door shut and the AED inside', () => {
    const out = messages(model(), start + 3 * 3600_000)
    expect(out[0].type).toBe('hello')
    const checks = out.filter((m) => m.type === 'cabinet_status')
    expect(checks.length).toBeGreaterThanOrEqual(3)
    for (const m of out) expect(parseDeviceMessage(m).ok, JSON.stringify(m)).toBe(true)
    expect(checks[0].data).toMatchObject({ door_status: 0, aed_present: true, fw_version: 'C1.1.0' })
    // GCJ-02 of the registry becomes WGS-84 a few hundred metres away.
    expect(Math.abs((checks[0].data.lat as number) - installation.lat)).toBeLessThan(0.01)
    expect(checks[0].data.lat).not.toBe(installation.lat)
    expect(out.map((m) => m.seq)).toEqual(out.map((_, i) => i + 1))
  })

  it('opens the door, says so in a self-check when it closes, and closes after the time given', () => {
    const m = model([{ at: start + 10 * MIN, openMs: 2 * MIN }])
    const out = messages(m, start + 30 * MIN).filter((x) => x.type === 'door' || x.ts >= start + 10 * MIN)
    const doors = out.filter((x) => x.type === 'door')
    expect(doors.map((d) => [d.data.door_status, d.ts - start])).toEqual([
      [1, 10 * MIN],
      [0, 12 * MIN],
    ])
    const after = out.find((x) => x.type === 'cabinet_status' && x.ts > start + 12 * MIN)
    expect(after?.data.door_status).toBe(0)
    expect(m.doorOpen()).toBe(false)
  })

  it('sometimes lets the AED go with the opened door and takes it back at the next opening', () => {
    const m = model([{ at: start + 10 * MIN, openMs: MIN, backAt: start + 40 * MIN }])
    const out = messages(m, start + 50 * MIN)
    const present = out
      .filter((x) => x.type === 'cabinet_status' && x.ts > start + 10 * MIN)
      .map((x) => [x.data.door_status, x.data.aed_present])
    expect(present[0]).toEqual([1, false])
    expect(present).toContainEqual([1, true])
    expect(out.filter((x) => x.type === 'door').map((x) => x.data.door_status)).toEqual([1, 0, 1, 0])
  })

  it('answers unlock by opening the door, siren with ok, and what it cannot do with an error', () => {
    const m = model()
    messages(m, start + MIN)
    const unlock = m.command(start + 2 * MIN, { cmd_id: 'u1', name: 'unlock' })
    expect(unlock.at(-1)?.data).toEqual({ cmd_id: 'u1', ok: true })
    const doors = messages(m, start + 5 * MIN).filter((x) => x.type === 'door')
    expect(doors.map((d) => d.data.door_status)).toEqual([1, 0])
    expect(m.command(start + 6 * MIN, { cmd_id: 's1', name: 'siren' })[0].data).toEqual({
      cmd_id: 's1',
      ok: true,
    })
    expect(m.command(start + 6 * MIN, { cmd_id: 'l1', name: 'locate' })[0].data).toMatchObject({ ok: false })
  })

  it('draws door openings by chance within the run; none at chance 0; the same seed the same doors', () => {
    const end = start + 24 * 3600_000
    expect(randomDoors(seededRng(1), start, end, 0, MIN)).toEqual([])
    const a = randomDoors(seededRng(5), start, end, 1, 60 * MIN)
    expect(a).toEqual(randomDoors(seededRng(5), start, end, 1, 60 * MIN))
    expect(a.length).toBeGreaterThan(0)
    for (const d of a) {
      expect(d.at).toBeGreaterThan(start)
      expect(d.at).toBeLessThan(end)
      expect(d.openMs).toBeGreaterThanOrEqual(42 * MIN)
      expect(d.openMs).toBeLessThanOrEqual(78 * MIN)
    }
  })
})
