// The device statistics' condition for the installations of a scope and region, for the dashboard
// (modules/dashboard), which counts over the same installations.
export { installationsIn } from './device-stats.repository.ts'
