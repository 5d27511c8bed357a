import { type SQL, sql } from 'drizzle-orm'

// What the coverage page (modules/coverage) reads of a call's dispatch inside its own SQL: when
// the first responder accepted and when the first arrived. The dispatch's states are its own, so
// the rule of what counts as an accept lives here.

/**
 * A LATERAL subquery of a call's first accept and first arrival (`first_accept`, `first_arrival`,
 * null when none). An accept is an alert answered and not declined: an alert accepted and later
 * stood down (the call closed) or arrived keeps its answered_at; a declined one never accepts.
 * Every arrival was accepted first.
 */
export function firstAnswersOfCall(callId: SQL): SQL {
  return sql`LATERAL (
    SELECT min(x.answered_at) FILTER (WHERE x.state <> 'declined') AS first_accept,
           min(x.arrived_at) AS first_arrival
    FROM dispatches d JOIN dispatch_alerts x ON x.dispatch_id = d.id
    WHERE d.call_id = ${callId}
  )`
}
