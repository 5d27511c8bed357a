import type { DeviceMessage } from '@aed/contracts/device-protocol'
import { toGcj02 } from '../engine/reducer.ts'

// The rescue cabinet engine's pure part, as reducer.ts is the AED's: a cabinet's state and one
// message in, its next state, the list's fields and the effects out. No clock, no database:
// cabinet-engine.service.ts reads the cabinet, calls `reduceCabinet`, and writes what it answers.
// A cabinet keeps no conditions of its own besides its door: its self-checks are records, its
// report fields the list's columns, a door opening the alarm (message type 4 and its popup), and
// its AED's comings and goings what the rescue flow and the AED's 'not_returned' warning read.

/** What the engine keeps of a cabinet between messages. */
export type CabinetState = {
  lastBoot: number
  lastSeq: number
  reportIntervalS: number | null
  /** A door event is open (the door was last seen open). */
  doorOpen: boolean
}

/** What the registry says of a cabinet that its reports are read against. */
export type CabinetPlace = {
  /** The address the registry set, or the text of its last position. */
  location: string | null
  lat: number | null
  lon: number | null
  /** The AED bound to it (none: no comings and goings to follow). */
  device_id: number | null
  device_sn: string | null
  device_model: string | null
}

/** What a report changes in the list's columns (undefined: unchanged). */
export type CabinetView = {
  doorStatus?: 0 | 1
  batteryPower?: number
  fwVersion?: string
  lat?: number
  lon?: number
  altitude?: number
  /**
   * The position as text: written when the cabinet has no address, or only the text of an
   * earlier position (an address the registry set stays).
   */
  location?: string
  aedPresent?: boolean
  uploadTime?: Date
}

/** A self-check record (cabinet_status) or door report (door), as the records page lists it. */
export type CabinetRecord = {
  type: 'cabinet_status' | 'door'
  deviceSn: string | null
  deviceModel: string | null
  doorStatus: number | null
  batteryPower: number | null
  fwVersion: string | null
  lat: number | null
  lon: number | null
  location: string | null
  altitude: number | null
  aedPresent: boolean | null
  time: Date
}

export type CabinetEffect =
  | { type: 'record'; record: CabinetRecord }
  /** The door opened: a door event and its alarm; a rescue of its AED that came first came out of it. */
  | { type: 'door_open'; time: Date; location: string | null }
  /** The door closed: its event closes (the AED, if it left, is due back). */
  | { type: 'door_close'; time: Date }
  /** The cabinet reports its AED absent: the open door event (or the last unsettled one) saw it leave. */
  | { type: 'aed_left'; time: Date }
  /** The cabinet reports its AED inside: every door event waiting for it is settled. */
  | { type: 'aed_back'; time: Date }
  | { type: 'ack'; cmdId: string; ok: boolean; error: string | null; time: Date }

export type CabinetInput = {
  message: DeviceMessage
  /** When the message happened (the device clock unless far off). */
  time: Date
  /** Not newer than the state: its record is kept, nothing current changes. */
  stale: boolean
}

export type CabinetOutput = { state: CabinetState; view: CabinetView; effects: CabinetEffect[] }

/** A position as the records and the door alarm show it when the cabinet has no address. */
export function coordinatesText(p: { lat: number | null; lon: number | null }): string | null {
  return p.lat === null || p.lon === null ? null : `${p.lat.toFixed(6)},${p.lon.toFixed(6)}`
}

/**
 * Applies one message to a cabinet. AED-only types change nothing (the service does not bring
 * them here). A stale message keeps its record and its ack but changes nothing else.
 */
export function reduceCabinet(prev: CabinetState, input: CabinetInput, place: CabinetPlace): CabinetOutput {
  const { message: m, time, stale } = input
  const state: CabinetState = { ...prev }
  const view: CabinetView = stale ? {} : { uploadTime: time }
  const effects: CabinetEffect[] = []
  const openDoor = () => {
    if (state.doorOpen) return
    state.doorOpen = true
    effects.push({ type: 'door_open', time, location: place.location ?? coordinatesText(place) })
  }
  const closeDoor = () => {
    if (!state.doorOpen) return
    state.doorOpen = false
    effects.push({ type: 'door_close', time })
  }
  if (!stale) {
    state.lastBoot = m.boot
    state.lastSeq = m.seq
  }

  switch (m.type) {
    case 'hello':
      if (stale) break
      if (m.data.report_interval_s) state.reportIntervalS = m.data.report_interval_s
      if (m.data.fw_version) view.fwVersion = m.data.fw_version
      break
    case 'heartbeat':
      if (!stale) view.batteryPower = m.data.battery
      break
    case 'location': {
      if (stale) break
      const p = toGcj02(m.data.lat, m.data.lon)
      Object.assign(view, { lat: p.lat, lon: p.lon, altitude: m.data.altitude })
      view.location = coordinatesText(p) ?? undefined
      break
    }
    case 'ack':
      effects.push({ type: 'ack', cmdId: m.data.cmd_id, ok: m.data.ok, error: m.data.error ?? null, time })
      break
    case 'cabinet_status': {
      const d = m.data
      const p = d.lat !== undefined && d.lon !== undefined ? toGcj02(d.lat, d.lon) : null
      effects.push({
        type: 'record',
        record: {
          type: 'cabinet_status',
          deviceSn: place.device_sn,
          deviceModel: place.device_model,
          doorStatus: d.door_status,
          batteryPower: d.battery_power ?? null,
          fwVersion: d.fw_version ?? null,
          lat: p?.lat ?? null,
          lon: p?.lon ?? null,
          location: p ? coordinatesText(p) : place.location,
          altitude: d.altitude ?? null,
          aedPresent: d.aed_present ?? null,
          time,
        },
      })
      if (stale) break
      Object.assign(view, {
        doorStatus: d.door_status,
        batteryPower: d.battery_power,
        fwVersion: d.fw_version,
        lat: p?.lat,
        lon: p?.lon,
        altitude: d.altitude,
        location: p ? (coordinatesText(p) ?? undefined) : undefined,
        aedPresent: d.aed_present,
      })
      // A periodic report that finds the door otherwise than the events say: a lost door
      // message is not a lost alarm (nor a door open for ever).
      if (d.door_status === 1) openDoor()
      if (place.device_id && d.aed_present === false) effects.push({ type: 'aed_left', time })
      if (d.door_status === 0) closeDoor()
      if (d.aed_present === true) effects.push({ type: 'aed_back', time })
      break
    }
    case 'door':
      effects.push({
        type: 'record',
        record: {
          type: 'door',
          deviceSn: place.device_sn,
          deviceModel: place.device_model,
          doorStatus: m.data.door_status,
          batteryPower: null,
          fwVersion: null,
          lat: null,
          lon: null,
          location: place.location ?? coordinatesText(place),
          altitude: null,
          aedPresent: null,
          time,
        },
      })
      if (stale) break
      view.doorStatus = m.data.door_status
      if (m.data.door_status === 1) openDoor()
      else closeDoor()
      break
    default:
      break
  }
  return { state, view, effects }
}
