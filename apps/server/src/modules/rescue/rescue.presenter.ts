import { modelOfSerial } from '@aed/contracts/device'
import type { RescueRow } from '@aed/contracts/rescue'
import { formatDateTime } from '../../lib/time.ts'
import { privateKeyOf } from '../../providers/storage/storage-provider.ts'
import type { RescueRecord } from './rescue.repository.ts'

/** A rescue as the emergency page lists it: times in the organisations' clock, the call it answered. */
export function presentRescue(r: RescueRecord): RescueRow {
  // The ECG's storage key: a name to hand back to the download, which opens nothing by itself.
  const ecg = r.ecg_file_url ? privateKeyOf(r.ecg_file_url) : null
  return {
    id: r.id,
    rescue_event_id: r.rescue_event_id,
    event_location: r.event_location,
    event_time: formatDateTime(r.event_time),
    ended_at: r.ended_at ? formatDateTime(r.ended_at) : null,
    device_id: r.device_id,
    device_sn: r.device_sn,
    model: modelOfSerial(r.device_sn),
    location: r.location,
    // Installations have no name of their own: the place's description (一楼大厅 ...) names the site.
    name: r.location_desc,
    agency_id: r.agency_id,
    agency_name: r.agency_name,
    event_lat: r.event_lat,
    event_lon: r.event_lon,
    has_ecg: ecg !== null,
    ecg_file_url: ecg,
    call:
      r.call_id !== null && r.call_time
        ? { id: r.call_id, call_time: formatDateTime(r.call_time), location: r.call_location ?? '' }
        : null,
    return_state: r.return_state,
  }
}
