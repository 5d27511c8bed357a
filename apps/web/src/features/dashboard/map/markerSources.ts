import type { FeatureCollection } from 'geojson'
import type { GeoJSONSource, MapGeoJSONFeature, Map as MapLibre } from 'maplibre-gl'
import type { LatLon } from '../../../components/MapView/datum'
import type { MarkerLayer, MarkerPoint } from './mapLayers'

/** The ticked marker layers and their points, as the page passes them. */
export type MarkerSet = readonly { layer: MarkerLayer; points: readonly MarkerPoint[] }[]

/** A marker layer's point was clicked: the layer's key, the point and the clicked feature. */
type OnMarker = (key: string, point: MarkerPoint, f: MapGeoJSONFeature) => void

/**
 * The map's marker layers (one small source each, under the clusters' counts), kept in step with
 * the ticked layers and their points. Points are set only when a layer's list changes, and a new
 * layer's source starts with its points, so a frame is not drawn empty and then again.
 */
export class MarkerSources {
  private drawn = new Map<string, readonly MarkerPoint[]>()
  private handled = new Set<string>()

  constructor(
    private readonly map: MapLibre,
    private readonly show: (p: LatLon) => [number, number],
    private readonly onClick: OnMarker,
    private readonly beforeLayer: string,
  ) {}

  /** Adds and removes layers to match `markers`, then sets the points that changed. */
  sync(markers: MarkerSet) {
    const map = this.map
    const wanted = new Set(markers.map((m) => m.layer.key))
    for (const layer of map.getStyle().layers) {
      const key = layer.id.startsWith('marker-') ? layer.id.split('-')[1] : null
      if (key && !wanted.has(key)) {
        map.removeLayer(layer.id)
        this.drawn.delete(key)
      }
    }
    for (const m of markers) {
      const id = `marker-${m.layer.key}`
      const source = map.getSource(id) as GeoJSONSource | undefined
      if (!source) map.addSource(id, { type: 'geojson', data: this.collection(m.points) })
      else if (this.drawn.get(m.layer.key) !== m.points) void source.setData(this.collection(m.points))
      this.drawn.set(m.layer.key, m.points)
      if (!map.getLayer(`${id}-point`)) this.addLayers(m.layer)
    }
  }

  private addLayers(layer: MarkerLayer) {
    const map = this.map
    const id = `marker-${layer.key}`
    // Under the clusters' counts, so a rescue beside a cluster does not hide its number.
    map.addLayer(
      {
        id: `${id}-halo`,
        type: 'circle',
        source: id,
        filter: ['==', ['get', 'active'], true],
        paint: {
          'circle-color': layer.color,
          'circle-opacity': 0.25,
          'circle-radius': ['interpolate', ['linear'], ['zoom'], 4, 10, 12, 18],
        },
      },
      this.beforeLayer,
    )
    map.addLayer(
      {
        id: `${id}-point`,
        type: 'circle',
        source: id,
        paint: {
          'circle-color': layer.color,
          'circle-radius': ['interpolate', ['linear'], ['zoom'], 4, 5, 12, 8],
          'circle-stroke-color': '#ffffff',
          'circle-stroke-width': ['interpolate', ['linear'], ['zoom'], 4, 1.5, 12, 2.5],
        },
      },
      this.beforeLayer,
    )
    // Handlers stay on the map by layer id: a layer ticked again reuses them.
    if (this.handled.has(id)) return
    this.handled.add(id)
    map.on('click', `${id}-point`, (e) => {
      const f = e.features?.[0]
      const point = f && this.drawn.get(layer.key)?.find((p) => p.id === Number(f.id))
      if (f && point) this.onClick(layer.key, point, f)
    })
    map.on('mouseenter', `${id}-point`, () => {
      map.getCanvas().style.cursor = 'pointer'
    })
    map.on('mouseleave', `${id}-point`, () => {
      map.getCanvas().style.cursor = ''
    })
  }

  private collection(points: readonly MarkerPoint[]): FeatureCollection {
    return {
      type: 'FeatureCollection',
      features: points.map((p) => ({
        type: 'Feature',
        id: p.id,
        properties: { active: p.active },
        geometry: { type: 'Point', coordinates: this.show(p) },
      })),
    }
  }
}
