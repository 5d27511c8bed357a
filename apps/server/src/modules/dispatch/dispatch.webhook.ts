import { maskPhone } from '@aed/contracts'
import { sql } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client.ts'
import { many } from '../../db/sql.ts'

/** A dispatch step as the `call.dispatch` webhook sends it: who is coming, in what role, and when. */
export type OpenDispatchStep = {
  step_id: number
  call_id: number
  external_id: string | null
  /** started, alerted, accepted, declined, expired, arrived, stood_down, unlocked, aed_replaced, phase, enough, closed. */
  kind: string
  time: string
  alert: {
    responder: string
    phone: string
    role: string
    state: string
    device_sn: string | null
    cabinet_sn: string | null
    distance: number
    eta_s: number
  } | null
}

/** Dispatch steps by id, for the webhook fan-out (calls' dispatches only). */
export async function openDispatchSteps(db: DbOrTx, ids: number[]): Promise<OpenDispatchStep[]> {
  if (ids.length === 0) return []
  const rows = await many<{
    id: number
    call_id: number
    external_id: string | null
    kind: string
    time: Date
    name: string | null
    phone: string | null
    role: string | null
    state: string | null
    device_sn: string | null
    cabinet_sn: string | null
    distance: number | null
    eta_s: number | null
  }>(
    db,
    sql`SELECT s.id, d.call_id, c.external_id, s.kind, s.time, a.name, a.phone, x.role, x.state, dv.device_sn,
               cb.cabinet_sn, x.distance, x.eta_s
        FROM dispatch_steps s JOIN dispatches d ON d.id = s.dispatch_id JOIN call_events c ON c.id = d.call_id
        LEFT JOIN dispatch_alerts x ON x.id = s.alert_id
        LEFT JOIN responders r ON r.id = x.responder_id LEFT JOIN accounts a ON a.id = r.account_id
        LEFT JOIN devices dv ON dv.id = x.device_id
        LEFT JOIN cabinets cb ON cb.device_id = dv.id AND cb.deleted_at IS NULL
        WHERE s.id IN (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )})`,
  )
  return rows.map((r) => ({
    step_id: r.id,
    call_id: r.call_id,
    external_id: r.external_id,
    kind: r.kind,
    time: r.time.toISOString(),
    alert:
      r.role && r.state
        ? {
            responder: r.name ?? '',
            phone: maskPhone(r.phone) ?? '',
            role: r.role,
            state: r.state,
            device_sn: r.device_sn,
            cabinet_sn: r.cabinet_sn,
            distance: r.distance ?? 0,
            eta_s: r.eta_s ?? 0,
          }
        : null,
  }))
}
