// What other modules may know of a device's detail rows: an event record, as the event pages
// (modules/event) extend it with their columns.
export type { EventRecord } from './device-detail.repository.ts'
