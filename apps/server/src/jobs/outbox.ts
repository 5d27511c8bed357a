import { LiveType } from '@aed/contracts/live'
import type { OutboxHandlers } from '../context.ts'
import { firstEscalationAt, smsOutboxHandler } from '../modules/alert/alert-sms.service.ts'
import { dispatchOutboxHandler } from '../modules/dispatch/dispatch.service.ts'
import { livePushOf, pushLiveMany } from '../modules/live/live.service.ts'
import { messageOutboxHandler } from '../modules/message/message.service.ts'
import { fanOutStatus, webhookOutboxHandler } from '../modules/webhook/webhook.fanout.ts'

/**
 * Who delivers each outbox topic, composed here once (as jobs/index.ts composes the jobs): the
 * engine writes outbox rows and drains them (modules/engine/outbox.ts) but knows no handler;
 * bootstrap.ts puts this table in the context, so the drain after a commit, the outbox job and
 * the tests all deliver through it.
 *
 * A device's status change becomes a live push (frame 11), a `live` row that names its frame
 * (lib/live-rows.ts: an event opened or closed, a cabinet's door) that frame, a message row the
 * message centre's message (with its alarm, first escalated when the alert plan says), an SMS
 * row the alert SMS plan, a webhook row a delivery per subscribed endpoint (modules/webhook: the
 * sender sends them later, outside any transaction); a status change is also a
 * device.status.changed delivery for the endpoints with device_data_push. Each runs in the
 * drain's transaction, so what it writes commits with the row's done_at.
 */
export const outboxHandlers: OutboxHandlers = {
  live: {
    batch: async (ctx, tx, rows) => {
      await pushLiveMany(
        ctx,
        tx,
        rows.map((row) => {
          const where = { agency_id: row.agency_id, index_link: row.index_link ?? '' }
          // A row of another frame (an event opened or closed, a cabinet's door) names it.
          const framed = livePushOf(row.payload)
          if (framed) return { ...where, ...framed }
          const { data_type: _legacy, ...data } = row.payload
          return { ...where, data_type: LiveType.DEVICE_STATUS, data }
        }),
      )
      await fanOutStatus(ctx, tx, rows)
    },
  },
  message: messageOutboxHandler(firstEscalationAt),
  sms: (ctx, tx, row) => smsOutboxHandler(ctx, tx, row),
  webhook: webhookOutboxHandler,
  // A new call's dispatch (modules/call writes the row with the call; drained at once, as alarms).
  dispatch: dispatchOutboxHandler,
}
