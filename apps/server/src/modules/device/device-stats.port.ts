// The device statistics' condition for the sites of a scope and region, for the dashboard
// (modules/dashboard), which counts over the same sites.
export { sites } from './device-stats.repository.ts'
