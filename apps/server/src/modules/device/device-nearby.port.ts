// Devices near a point, for the emergency page (modules/call): the normal devices around a call,
// and the district of the nearest installation (a call's region when no map vendor resolves it).
export { nearestInstallationDistrict, normalDevicesNear } from './device-nearby.repository.ts'
