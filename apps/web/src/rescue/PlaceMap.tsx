import type { ResponderAlert } from '@aed/contracts/dispatch'
import { tileService } from '../lib/mapTiles'
import type { Position } from './api'
import { distanceM, gcj02ToWgs84, type Point, wgs84ToGcj02 } from './geo'
import { fitView, project, scaleBar, tilesFor, type View } from './mapView'
import { formatDistance, type Lang, type Texts } from './texts'

const W = 360
const H = 230
// Room for the markers, their labels and the north arrow at the edges.
const PAD = 42

// Raster tiles when the build names a service (VITE_MAP_TILES); a plain sketch otherwise.
const tiles = tileService()

type Props = { alert: ResponderAlert; me: Position | null; stop: 'aed' | 'patient'; t: Texts; lang: Lang }

/**
 * The place as a sketch: the patient, the AED to fetch and the phone's own position where they lie
 * to each other, the legs of the way with their straight-line distances, north up, a scale bar;
 * over raster tiles when a tile service is configured. No map library: it must load on 4G.
 */
export function PlaceMap({ alert, me, stop, t, lang }: Props) {
  const patient: Point = { lat: alert.call.lat, lon: alert.call.lon }
  const aed: Point | null = alert.role === 'aed' && alert.aed ? alert.aed : null
  const self = me ? wgs84ToGcj02(me) : null
  const legs: [Point, Point][] =
    aed && stop === 'aed' ? [...(self ? [[self, aed] as [Point, Point]] : []), [aed, patient]] : []
  if (!legs.length && self) legs.push([self, patient])
  // WGS-84 tiles (OSM, Tianditu) need the points moved onto their grid; distances stay GCJ-02's.
  const shown = (p: Point) => (tiles?.datum === 'wgs84' ? gcj02ToWgs84(p) : p)
  const view = fitView([patient, aed, self].filter((p) => p !== null).map(shown), W, H, PAD)
  const at = (p: Point) => project(view, shown(p))

  return (
    <figure className="map" aria-label={t.schematic}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img">
        <title>{t.schematic}</title>
        <rect width={W} height={H} className="map-ground" />
        {tiles ? <Tiles view={view} /> : <Grid />}
        {legs.map(([a, b]) => (
          <Leg
            key={`${a.lat},${a.lon}-${b.lat},${b.lon}`}
            from={at(a)}
            to={at(b)}
            metres={distanceM(a, b)}
            lang={lang}
          />
        ))}
        {aed && <AedMarker xy={at(aed)} faded={stop === 'patient'} />}
        <PatientMarker xy={at(patient)} />
        {self && <MeMarker xy={at(self)} />}
        <NorthArrow label={t.north} />
        <ScaleBar view={view} lat={patient.lat} lang={lang} />
        <text x={W - 6} y={H - 6} className="map-note" textAnchor="end">
          {tiles ? tiles.attribution : t.schematic}
        </text>
      </svg>
      <figcaption className="legend">
        <span className="dot dot-patient" />
        {t.patient}
        {aed && (
          <>
            <span className="dot dot-aed" />
            {t.aed}
          </>
        )}
        <span className="dot dot-me" />
        {t.me}
      </figcaption>
    </figure>
  )
}

function Tiles({ view }: { view: View }) {
  if (!tiles) return null
  const layers = [tiles.tiles, ...(tiles.labels ? [tiles.labels] : [])]
  return layers.flatMap((urls) =>
    tilesFor(view, urls, tiles.scheme, tiles.maxzoom).map((tile) => (
      <image key={tile.href} href={tile.href} x={tile.x} y={tile.y} width={tile.size} height={tile.size} />
    )),
  )
}

function Grid() {
  const lines = []
  for (let x = 30; x < W; x += 60) lines.push(<line key={`x${x}`} x1={x} y1={0} x2={x} y2={H} />)
  for (let y = 25; y < H; y += 60) lines.push(<line key={`y${y}`} x1={0} y1={y} x2={W} y2={y} />)
  return <g className="map-grid">{lines}</g>
}

type XY = [number, number]

function Leg({ from, to, metres, lang }: { from: XY; to: XY; metres: number; lang: Lang }) {
  const [mx, my] = [(from[0] + to[0]) / 2, (from[1] + to[1]) / 2]
  return (
    <g className="map-leg">
      <line x1={from[0]} y1={from[1]} x2={to[0]} y2={to[1]} />
      <text x={mx} y={my - 6} textAnchor="middle" className="map-label">
        {formatDistance(metres, lang)}
      </text>
    </g>
  )
}

function PatientMarker({ xy: [x, y] }: { xy: XY }) {
  return (
    <g className="marker-patient" transform={`translate(${x} ${y})`}>
      <circle r={20} className="pulse" />
      <circle r={12} />
      <path d="M-2.5 -7h5v4.5h4.5v5h-4.5v4.5h-5v-4.5h-4.5v-5h4.5z" className="cross" />
    </g>
  )
}

function AedMarker({ xy: [x, y], faded }: { xy: XY; faded: boolean }) {
  return (
    <g className={`marker-aed${faded ? ' faded' : ''}`} transform={`translate(${x} ${y})`}>
      <rect x={-17} y={-11} width={34} height={22} rx={5} />
      <text y={4.5} textAnchor="middle">
        AED
      </text>
    </g>
  )
}

function MeMarker({ xy: [x, y] }: { xy: XY }) {
  return (
    <g className="marker-me" transform={`translate(${x} ${y})`}>
      <circle r={8} />
    </g>
  )
}

function NorthArrow({ label }: { label: string }) {
  return (
    <g className="map-north" transform={`translate(${W - 22} 24)`}>
      <circle r={19} cy={4} />
      <path d="M0 -14 L7 6 L0 2 L-7 6 Z" />
      <text y={18} textAnchor="middle">
        {label}
      </text>
    </g>
  )
}

function ScaleBar({ view, lat, lang }: { view: View; lat: number; lang: Lang }) {
  const { metres, px } = scaleBar(view, lat, 90)
  return (
    <g className="map-scale" transform={`translate(10 ${H - 12})`}>
      <path d={`M0 -5 V0 H${px} V-5`} />
      <text x={px / 2} y={-8} textAnchor="middle">
        {formatDistance(metres, lang)}
      </text>
    </g>
  )
}
