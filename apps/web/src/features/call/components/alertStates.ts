import type { AlertState, Dispatch, DispatchAlert } from '@aed/contracts/dispatch'

/** Each alert state's tag colour: waiting blue, coming green, there cyan, refused red, silent orange, released grey. */
export const ALERT_STATE_COLOR: Readonly<Record<AlertState, string>> = {
  alerted: 'processing',
  accepted: 'success',
  arrived: 'cyan',
  declined: 'error',
  expired: 'warning',
  stood_down: 'default',
}

/** A dispatch's state tag: running blue, enough green, closed grey. */
export const RUN_STATE_COLOR: Readonly<Record<Dispatch['state'], string>> = {
  running: 'processing',
  enough: 'success',
  closed: 'default',
}

/** The dispatcher reads who is coming first: arrived, accepted, waiting, then those who are not. */
const ORDER: readonly AlertState[] = ['arrived', 'accepted', 'alerted', 'expired', 'declined', 'stood_down']

/**
 * An alert's place in that order. Closing a dispatch stands down those who had accepted or
 * arrived too: they come first among those not coming (their answer and arrival times stay).
 */
const rank = (a: DispatchAlert) =>
  a.state === 'stood_down' && a.answered_at ? ORDER.indexOf('alerted') + 0.5 : ORDER.indexOf(a.state)

/** The alerts in the panel's order: by state as above, then in the order they were sent. */
export function alertsInOrder(alerts: readonly DispatchAlert[]): DispatchAlert[] {
  return [...alerts].sort((a, b) => rank(a) - rank(b) || a.id - b.id)
}

/** Whether the responder is (or may still be) on the way: their line is drawn on the map. */
export const onTheWay = (state: AlertState) =>
  state === 'alerted' || state === 'accepted' || state === 'arrived'

/** Whether the responder said yes. */
export const committed = (state: AlertState) => state === 'accepted' || state === 'arrived'
