import type { OpenCallForm } from '@aed/contracts/open-api'
import { toGcj02 } from '../engine/gcj02.ts'

/** An integrator's call with its place in GCJ-02 (stored so): a WGS-84 point (GPS) converted. */
export function fromWgs84(form: OpenCallForm): OpenCallForm {
  if (form.coord !== 'wgs84') return form
  const p = toGcj02(form.lat, form.lon)
  return { ...form, lat: p.lat, lon: p.lon, coord: 'gcj02' }
}
