// The tile configuration is lib's (the responder's page draws the same tiles without MapLibre);
// the map's files and the dashboard import it from here as before.
export { type Datum, type TileService, tileService } from '../../lib/mapTiles'
