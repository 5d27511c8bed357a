import { LiveType } from '@aed/contracts/live'
import type { OutboxHandlers } from '../context.ts'
import { firstEscalationAt, smsOutboxHandler } from '../modules/alert/alert-sms.service.ts'
import { pushLiveMany } from '../modules/live/live.service.ts'
import { messageOutboxHandler } from '../modules/message/message.service.ts'

/**
 * Who delivers each outbox topic, composed here once (as jobs/index.ts composes the jobs): the
 * engine writes outbox rows and drains them (modules/engine/outbox.ts) but knows no handler;
 * bootstrap.ts puts this table in the context, so the drain after a commit, the outbox job and
 * the tests all deliver through it.
 *
 * A device's status change becomes a live push (frame 11), a message row the message centre's
 * message (with its alarm, first escalated when the alert plan says), an SMS row the alert SMS
 * plan. Each runs in the drain's transaction, so what it writes commits with the row's done_at.
 * `webhook` rows have no handler yet: they wait in the table.
 */
export const outboxHandlers: OutboxHandlers = {
  live: {
    batch: (ctx, tx, rows) =>
      pushLiveMany(
        ctx,
        tx,
        rows.map((row) => {
          const { data_type: _legacy, ...data } = row.payload
          return {
            data_type: LiveType.DEVICE_STATUS,
            agency_id: row.agency_id,
            index_link: row.index_link ?? '',
            data,
          }
        }),
      ),
  },
  message: messageOutboxHandler(firstEscalationAt),
  sms: (ctx, tx, row) => smsOutboxHandler(ctx, tx, row),
}
