import type { mapZhCN } from './zh-CN'

/** Texts of the console's map: en-US, with the keys of the zh-CN set. */
export const mapEnUS: typeof mapZhCN = {
  map: {
    loading: 'Loading the map…',
    unavailable: 'This browser cannot show the map: please type the coordinates',
    pickHint: 'Click the map or drag the marker to pick the place',
    manualAddress:
      'This map cannot turn a position into an address: please type the address and choose the region',
    lat: 'Latitude',
    lon: 'Longitude',
    zoomIn: 'Zoom in',
    zoomOut: 'Zoom out',
  },
}
