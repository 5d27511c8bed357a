import type { Duplicate } from '@aed/contracts/review'
import { useTranslation } from 'react-i18next'
import { PLACE_ZOOM } from '../../../components/MapPicker/MapPicker'
import { MapView } from '../../../components/MapView/MapView'
import type { MapMarker } from '../../../components/MapView/types'

/** The submission's colour, and each kind of match's. */
const SUBMISSION_COLOR = '#cf1322'
const KIND_COLORS: Record<Duplicate['kind'], string> = {
  device: '#52c41a',
  third_party: '#8c8c8c',
  responder: '#13a8a8',
}

type Props = {
  point: { lat: number | null; lon: number | null }
  title: string
  duplicates: readonly Duplicate[]
}

/** The submission and its possible duplicates as pins on a small map (zoom 16: they are metres apart). */
export function DuplicateMap({ point, title, duplicates }: Props) {
  const { t } = useTranslation()
  const markers: MapMarker[] = []
  if (point.lat !== null && point.lon !== null)
    markers.push({ id: 'submission', lat: point.lat, lon: point.lon, color: SUBMISSION_COLOR, title })
  for (const d of duplicates) {
    if (d.lat === null || d.lon === null) continue
    markers.push({
      id: `${d.kind}-${d.id}`,
      lat: d.lat,
      lon: d.lon,
      color: KIND_COLORS[d.kind],
      title: `${t(`review.duplicate.kind.${d.kind}`)} ${d.label}`,
    })
  }
  if (markers.length === 0)
    return <div className="review-compare-noplace">{t('review.duplicate.noPlace')}</div>
  return (
    <MapView
      height={220}
      center={markers[0]}
      zoom={PLACE_ZOOM}
      markers={markers}
      testId="review-compare-map"
    />
  )
}
