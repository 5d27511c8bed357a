import type { DeviceMessage } from '@aed/contracts/device-protocol'
import { describe, expect, it } from 'vitest'
import { toGcj02 } from '../engine/reducer.ts'
import {
  type CabinetInput,
  type CabinetPlace,
  type CabinetState,
  coordinatesText,
  reduceCabinet,
} from './cabinet.reducer.ts'

const T0 = new Date('2026-11-22T02:00:00Z')
const at = (min: number) => new Date(T0.getTime() + min * 60_000)

/** A cabinet at an address, bound to an AED. */
const bound: CabinetPlace = {
  location: '人民广场东门',
  lat: 31.2304,
  lon: 121.4737,
  device_id: 7,
  device_sn: 'A6400000007',
  device_model: 'D100',
}
/** A cabinet with no address and no AED. */
const bare: CabinetPlace = {
  location: null,
  lat: 31.2304,
  lon: 121.4737,
  device_id: null,
  device_sn: null,
  device_model: null,
}
const closed = (): CabinetState => ({ lastBoot: 1, lastSeq: 0, reportIntervalS: null, doorOpen: false })
const open = (): CabinetState => ({ ...closed(), doorOpen: true })

let seq = 0
function msg(type: DeviceMessage['type'], data: Record<string, unknown>): DeviceMessage {
  return { v: 1, id: `c${++seq}`, seq, boot: 1, ts: T0.getTime(), type, data } as unknown as DeviceMessage
}
const input = (m: DeviceMessage, time = T0, stale = false): CabinetInput => ({ message: m, time, stale })

describe('the door', () => {
  it('door 1 is a record and opens the door event at the address; door 0 closes it', () => {
    const opened = reduceCabinet(closed(), input(msg('door', { door_status: 1 })), bound)
    expect(opened.effects.map((e) => e.type)).toEqual(['record', 'door_open'])
    expect(opened.effects[1]).toEqual({ type: 'door_open', time: T0, location: '人民广场东门' })
    expect(opened.state.doorOpen).toBe(true)
    expect(opened.view).toEqual({ uploadTime: T0, doorStatus: 1 })
    const shut = reduceCabinet(opened.state, input(msg('door', { door_status: 0 }), at(2)), bound)
    expect(shut.effects.map((e) => e.type)).toEqual(['record', 'door_close'])
    expect(shut.state.doorOpen).toBe(false)
  })

  it('a door that opens again while open, or closes while closed, is a record only', () => {
    expect(
      reduceCabinet(open(), input(msg('door', { door_status: 1 })), bound).effects.map((e) => e.type),
    ).toEqual(['record'])
    expect(
      reduceCabinet(closed(), input(msg('door', { door_status: 0 })), bound).effects.map((e) => e.type),
    ).toEqual(['record'])
  })

  it('a cabinet without an address names its door event and records by its position', () => {
    const out = reduceCabinet(closed(), input(msg('door', { door_status: 1 })), bare)
    const text = coordinatesText(bare)
    expect(text).toBe('31.230400,121.473700')
    expect(out.effects).toContainEqual({ type: 'door_open', time: T0, location: text })
    expect(out.effects[0]).toMatchObject({ type: 'record', record: { type: 'door', location: text } })
  })

  it('an old (stale) door report keeps its record and changes nothing else', () => {
    const out = reduceCabinet(closed(), input(msg('door', { door_status: 1 }), T0, true), bound)
    expect(out.effects.map((e) => e.type)).toEqual(['record'])
    expect(out.state).toEqual(closed())
    expect(out.view).toEqual({})
  })
})

describe('self-checks (cabinet_status)', () => {
  it('are a record with the bound AED, and the list takes their fields', () => {
    const out = reduceCabinet(
      closed(),
      input(
        msg('cabinet_status', { door_status: 0, battery_power: 80, fw_version: 'C2.1', aed_present: true }),
      ),
      bound,
    )
    expect(out.effects[0]).toEqual({
      type: 'record',
      record: {
        type: 'cabinet_status',
        deviceSn: 'A6400000007',
        deviceModel: 'D100',
        doorStatus: 0,
        batteryPower: 80,
        fwVersion: 'C2.1',
        lat: null,
        lon: null,
        location: '人民广场东门',
        altitude: null,
        aedPresent: true,
        time: T0,
      },
    })
    expect(out.view).toMatchObject({ doorStatus: 0, batteryPower: 80, fwVersion: 'C2.1', aedPresent: true })
  })

  it('take a position in GCJ-02 and write it as the text of the record and the list', () => {
    const out = reduceCabinet(
      closed(),
      input(msg('cabinet_status', { door_status: 0, lat: 31.2, lon: 121.5 })),
      bound,
    )
    const p = toGcj02(31.2, 121.5)
    expect(out.view).toMatchObject({ lat: p.lat, lon: p.lon, location: coordinatesText(p) })
    expect(out.effects[0]).toMatchObject({ record: { lat: p.lat, lon: p.lon, location: coordinatesText(p) } })
  })

  it('that find the door open open the event a lost door message would have', () => {
    const out = reduceCabinet(closed(), input(msg('cabinet_status', { door_status: 1 })), bound)
    expect(out.effects.map((e) => e.type)).toEqual(['record', 'door_open'])
    expect(
      reduceCabinet(open(), input(msg('cabinet_status', { door_status: 0 })), bound).effects.map(
        (e) => e.type,
      ),
    ).toEqual(['record', 'door_close'])
  })

  it('with the AED absent mark it taken (after the door opens, before it closes); present, returned', () => {
    const taken = reduceCabinet(
      closed(),
      input(msg('cabinet_status', { door_status: 1, aed_present: false })),
      bound,
    )
    expect(taken.effects.map((e) => e.type)).toEqual(['record', 'door_open', 'aed_left'])
    const leftThenClosed = reduceCabinet(
      open(),
      input(msg('cabinet_status', { door_status: 0, aed_present: false })),
      bound,
    )
    expect(leftThenClosed.effects.map((e) => e.type)).toEqual(['record', 'aed_left', 'door_close'])
    const back = reduceCabinet(
      closed(),
      input(msg('cabinet_status', { door_status: 0, aed_present: true }), at(90)),
      bound,
    )
    expect(back.effects).toContainEqual({ type: 'aed_back', time: at(90) })
  })

  it('an absent AED of a cabinet with none bound is no one to follow', () => {
    const out = reduceCabinet(
      closed(),
      input(msg('cabinet_status', { door_status: 0, aed_present: false })),
      bare,
    )
    expect(out.effects.map((e) => e.type)).toEqual(['record'])
  })

  it('an old (stale) one keeps its record only', () => {
    const out = reduceCabinet(
      closed(),
      input(msg('cabinet_status', { door_status: 1, aed_present: false, battery_power: 50 }), T0, true),
      bound,
    )
    expect(out.effects.map((e) => e.type)).toEqual(['record'])
    expect(out.view).toEqual({})
  })
})

describe('the rest', () => {
  it('hello sets the report interval and firmware; a stale hello does not', () => {
    const out = reduceCabinet(
      closed(),
      input(msg('hello', { report_interval_s: 600, fw_version: 'C2.0' })),
      bound,
    )
    expect(out.state.reportIntervalS).toBe(600)
    expect(out.view).toEqual({ uploadTime: T0, fwVersion: 'C2.0' })
    const stale = reduceCabinet(closed(), input(msg('hello', { report_interval_s: 600 }), T0, true), bound)
    expect(stale.state.reportIntervalS).toBeNull()
  })

  it('a heartbeat is the list’s battery; a location its position', () => {
    expect(reduceCabinet(closed(), input(msg('heartbeat', { battery: 50 })), bound).view).toEqual({
      uploadTime: T0,
      batteryPower: 50,
    })
    const p = toGcj02(31.2, 121.5)
    expect(
      reduceCabinet(closed(), input(msg('location', { lat: 31.2, lon: 121.5, altitude: 12 })), bound).view,
    ).toEqual({ uploadTime: T0, lat: p.lat, lon: p.lon, altitude: 12, location: coordinatesText(p) })
  })

  it('an ack answers its command, even when it comes late', () => {
    const ack = msg('ack', { cmd_id: 'x1', ok: false, error: 'busy' })
    expect(reduceCabinet(closed(), input(ack, T0, true), bound).effects).toEqual([
      { type: 'ack', cmdId: 'x1', ok: false, error: 'busy', time: T0 },
    ])
  })

  it('a new message moves the order; a stale one leaves it', () => {
    const m = msg('heartbeat', { battery: 50 })
    expect(reduceCabinet(closed(), input(m), bound).state).toMatchObject({ lastBoot: 1, lastSeq: m.seq })
    expect(reduceCabinet(closed(), input(m, T0, true), bound).state).toMatchObject({
      lastBoot: 1,
      lastSeq: 0,
    })
  })
})
