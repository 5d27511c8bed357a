import type { AppContext } from '../../context.ts'
import { nearestInstallationDistrict } from '../device/device-nearby.port.ts'

/** How far the nearest registered place may be for its district to stand for a call's. */
const NEAREST_PLACE_M = 20_000

/**
 * The district code of a call's place: the map vendor's reverse geocoding when one is configured;
 * otherwise (the offline map cannot resolve points) the district of the nearest live installation
 * within 20 km, which in a city is the call's own district or its neighbour. Null when neither
 * answers: the call is still recorded, and lists filtered by region leave it out.
 */
export async function regionOfPoint(ctx: AppContext, lat: number, lon: number): Promise<string | null> {
  try {
    const a = await ctx.map.reverse(lat, lon)
    if (a.address_code) return a.address_code
  } catch {
    // Offline or the vendor failed: the nearest installation below.
  }
  return nearestInstallationDistrict(ctx.db, { lat, lon }, NEAREST_PLACE_M)
}
