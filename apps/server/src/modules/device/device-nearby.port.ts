// Devices near a point, for the emergency page (modules/call) and dispatch (modules/dispatch):
// the normal devices around a call, the district of the nearest installation (a call's region
// when no map vendor resolves it), and the AEDs usable now that dispatch chooses from.
export {
  nearestInstallationDistrict,
  normalDevicesNear,
  type ReadyAed,
  readyAedsNear,
  stillReady,
} from './device-nearby.repository.ts'
