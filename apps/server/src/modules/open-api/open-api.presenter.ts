import type { Lang } from '@aed/contracts'
import { labelIn } from '@aed/contracts/constants'
import { faultDescription } from '@aed/contracts/device-protocol'
import type { COORDS, NearbyAed, OpenAed, OpenEvent } from '@aed/contracts/open-api'
import { fromGcj02 } from '../engine/gcj02.ts'
import { shownStatus } from '../engine/status.presenter.ts'
import { warningLabel } from '../event/event.presenter.ts'
import type { NearbyRow, OpenAedRow, OpenClassroomRow, OpenEventRow } from './open-api.repository.ts'

/** The coordinate system of a request's points and its answer's. */
export type Coord = (typeof COORDS)[number]

/** How an answer is written: its coordinate system, and the origin relative file URLs are made absolute with. */
export type PresentOptions = {
  coord: Coord
  /** 'https://aed.example.cn': '/files/x.png' becomes 'https://aed.example.cn/files/x.png'; null keeps it relative. */
  filesOrigin: string | null
}

/** A stored file URL as another system can fetch it: absolute ones as they are, '/files/...' under the origin. */
export function publicFileUrl(url: string, origin: string | null): string {
  if (/^https?:\/\//i.test(url) || !origin || !url.startsWith('/')) return url
  return `${origin.replace(/\/+$/, '')}${url}`
}

/** An AED as integrators see it, in the asked coordinate system. */
export function openAedObject(row: OpenAedRow, o: PresentOptions): OpenAed {
  const point = o.coord === 'wgs84' ? fromGcj02(row.lat, row.lon) : { lat: row.lat, lon: row.lon }
  return {
    sn: row.sn,
    model: row.model,
    // The console's status: normal where the site hides abnormal states; readiness stays the truth.
    status: shownStatus(row),
    readiness: row.readiness,
    readiness_reasons: row.readiness_reasons,
    last_verified_time: row.last_pass_at ? row.last_pass_at.toISOString() : null,
    battery: row.battery,
    lat: point.lat,
    lon: point.lon,
    coord: o.coord,
    address: row.location,
    location_desc: row.location_desc,
    address_code: row.address_code,
    photos: [row.chest_shot_img, row.long_shot_img]
      .filter((u) => u !== '')
      .map((u) => publicFileUrl(u, o.filesOrigin)),
    opening_hours: {
      open_state: row.open_state,
      open_day: row.open_day,
      open_time_period: row.open_time_period,
    },
    cabinet: row.cabinet_sn
      ? {
          sn: row.cabinet_sn,
          // As the cabinet list: online while its deadline holds; one that never reported is not.
          online: row.cabinet_offline === false,
          door_status: row.cabinet_door_status,
        }
      : null,
    agency_id: row.agency_id,
    agency_name: row.agency_name,
    update_time: row.update_time.toISOString(),
    removed: row.removed === true,
  }
}

/** A nearby answer's row: the AED and its whole metres from the asked point. */
export function nearbyAedObject(row: NearbyRow, o: PresentOptions): NearbyAed {
  return { ...openAedObject(row, o), distance: Math.round(row.distance), third_party: false }
}

const KIND_LABELS = {
  offset: ['位置偏移', 'Location offset'],
  offline: ['设备离线', 'Offline'],
} as const

/** A device event as integrators see it, its code described in the request's language. */
export function openEventObject(row: OpenEventRow, lang: Lang): OpenEvent {
  const description =
    row.kind === 'fault'
      ? faultDescription(row.code, lang)
      : row.kind === 'warning'
        ? warningLabel(row.code, lang)
        : labelIn(KIND_LABELS[row.kind], lang)
  return {
    id: row.id,
    kind: row.kind,
    code: row.code,
    description,
    sn: row.sn,
    agency_id: row.agency_id,
    open_time: row.event_time.toISOString(),
    close_time: row.closed_at ? row.closed_at.toISOString() : null,
    state: row.closed_at ? 'closed' : 'open',
    update_time: row.update_time.toISOString(),
  }
}

/** A classroom item as a mini-program lists it. */
export function openClassroomObject(row: OpenClassroomRow) {
  return {
    id: row.id,
    category: row.category,
    title: row.title,
    describe: row.describe || null,
    link: row.link || null,
    illustration: row.illustration,
    content_type: row.content_type,
    create_time: row.create_time.toISOString(),
  }
}
