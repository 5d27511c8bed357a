// What the rescue cabinet's engine (modules/cabinet/cabinet-engine.service.ts) asks of the device
// engine: the inbox steps every sender takes, the outbox, an AED's re-check inside the cabinet's
// transaction, and how a rescue meets a door event. The engine knows no cabinet: it never calls
// into modules/cabinet, and the cabinet hands it no callbacks.

export { linkRescue, markLeft, recentRescueOf } from './door-link.repository.ts'
export { SWEEP_EVERY_MS } from './engine.jobs.ts'
export { AED_RETURN_MS, DOOR_RESCUE_WINDOW_MS, deadlineAfter, type Outcome } from './engine.rules.ts'
export { applyCheck } from './engine.service.ts'
export {
  type InboxRow,
  insertInbox,
  lockInbox,
  MAX_ATTEMPTS,
  type NewInboxRow,
  pendingInbox,
  waitingOf,
} from './inbox.repository.ts'
export {
  type Accepted,
  type Applied,
  answerOf,
  errorText,
  failed,
  failedIn,
  finish,
  type IngestResult,
  inboxRowOf,
  keepFailed,
  messageOfRow,
  orderOf,
} from './inbox.ts'
export { insertOutbox, type OutboxRow } from './outbox.repository.ts'
export { kickIfTold, tellOutbox } from './outbox.ts'
