// What the rescue cabinet's engine (modules/cabinet/cabinet-engine.service.ts) asks of the device
// engine: the inbox steps every sender takes and the inbox runner (the cabinet builds its own,
// inboxRunner({ kind: 'cabinet', lock, apply }): the same transactions, order, retries and dead
// handling as the AED's), the outbox, an AED's re-check inside the cabinet's transaction, how a
// rescue meets a door event, and the platform's outage window. The engine knows no cabinet: it
// never imports modules/cabinet; the AED engine's own code never calls a cabinet's.

export { linkRescue, markLeft, recentRescueOf } from './door-link.repository.ts'
export { type Outage, SWEEP_EVERY_MS } from './engine.jobs.ts'
export { ackCommand } from './engine.repository.ts'
export { AED_RETURN_MS, DOOR_RESCUE_WINDOW_MS, deadlineAfter, type Outcome } from './engine.rules.ts'
export { applyCheck } from './engine.service.ts'
export { type InboxRow, MAX_ATTEMPTS } from './inbox.repository.ts'
export {
  type Accepted,
  type Applied,
  finish,
  type IngestResult,
  messageOfRow,
  orderOf,
} from './inbox.ts'
export { inboxRunner } from './inbox-runner.ts'
export { insertOutbox, type OutboxRow } from './outbox.repository.ts'
export { kickIfTold, tellOutbox } from './outbox.ts'
