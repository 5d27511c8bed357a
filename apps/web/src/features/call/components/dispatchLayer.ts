import type { CallDetail } from '@aed/contracts/call'
import type { DispatchAlert } from '@aed/contracts/dispatch'
import type { LatLon } from '../../../components/MapView/datum'
import { committed, onTheWay } from './alertStates'
import { type MapLine, type MapPoint, PointKind } from './mapPoints'

/** The devices (9) and responders (5) around a call, with its dispatch laid over them, and the responders' ways. */
export type DispatchLayer = { devices: MapPoint[]; responders: MapPoint[]; lines: MapLine[] }

const at = (p: LatLon): LatLon => ({ lat: p.lat, lon: p.lon })

/**
 * The call's surroundings as map points, with its dispatch: the AEDs it chose from join the
 * normal devices (9), each alerted responder is drawn at their last shared position, else at
 * their home among the responders (5), one marker a person (`responder-<id>`, so a new position
 * moves it). Those on the way get a line to the patient, or through their AED to the patient;
 * accepted ones and the AEDs being fetched are strong, those not coming faint.
 */
export function dispatchLayer(detail: CallDetail, alertTitle: (a: DispatchAlert) => string): DispatchLayer {
  const devices = new Map<string, MapPoint>()
  for (const d of detail.devices)
    devices.set(d.device_sn, {
      key: `device-${d.id}`,
      id: d.id,
      kind: PointKind.NEARBY_DEVICE,
      ...at(d),
      title: `${d.device_sn} ${d.distance}m`,
    })
  for (const a of detail.dispatch?.aeds ?? [])
    if (!devices.has(a.device_sn))
      devices.set(a.device_sn, {
        key: `device-${a.device_id}`,
        id: a.device_id,
        kind: PointKind.NEARBY_DEVICE,
        ...at(a),
        title: `${a.device_sn} ${a.distance}m`,
      })
  const responders = new Map<number, MapPoint>()
  for (const r of detail.responders)
    responders.set(r.id, {
      key: `responder-${r.id}`,
      id: r.id,
      kind: PointKind.RESPONDER,
      ...at(r),
      title: `${r.name} ${r.distance}m`,
    })

  const lines: MapLine[] = []
  for (const a of detail.dispatch?.alerts ?? []) {
    const home = responders.get(a.responder_id)
    const shared = a.lat !== null && a.lon !== null ? { lat: a.lat, lon: a.lon } : null
    const from = shared ?? (home ? at(home) : null)
    if (!from) continue
    responders.set(a.responder_id, {
      key: `responder-${a.responder_id}`,
      id: a.responder_id,
      kind: PointKind.RESPONDER,
      ...from,
      title: alertTitle(a),
      emphasis: committed(a.state) ? 'strong' : onTheWay(a.state) ? undefined : 'faint',
    })
    if (!onTheWay(a.state)) continue
    const aed = a.role === 'aed' && a.device_sn ? devices.get(a.device_sn) : undefined
    if (aed) devices.set(a.device_sn as string, { ...aed, emphasis: 'strong' })
    lines.push({
      key: `alert-${a.id}`,
      path: aed ? [from, at(aed), at(detail)] : [from, at(detail)],
      strong: committed(a.state),
    })
  }
  return { devices: [...devices.values()], responders: [...responders.values()], lines }
}
