import crypto from 'node:crypto'
import type { AppContext } from '../../context.ts'
import { invalid, notFound } from '../../lib/errors.ts'
import type { AuthContext } from '../../plugins/auth.ts'
import { configInScope } from '../service-config/service-config.service.ts'
import { presentDelivery, webhookBody } from './webhook.presenter.ts'
import * as repo from './webhook.repository.ts'

// The console's view of an endpoint's deliveries: the log, a resend, a test event. Every call
// names the configuration, which must be in the caller's scope (service-config's rule).

/** A configuration's delivery log, newest first. */
export async function deliveries(
  ctx: AppContext,
  auth: AuthContext,
  configId: number,
  q: { page: number; page_size: number; state?: string; event?: string },
) {
  const config = await configInScope(ctx, auth, configId)
  const { count, rows } = await repo.deliveryPage(ctx.db, config.id, q)
  return { count, resource: rows.map(presentDelivery) }
}

/**
 * Sends a delivery again: back to pending, due now, with its retry schedule started again and
 * the same webhook-id (docs/decisions.md, "Open API and webhooks"). It goes in its turn: the
 * endpoint's earlier pending deliveries first.
 */
export async function resend(ctx: AppContext, auth: AuthContext, configId: number, deliveryId: number) {
  const config = await configInScope(ctx, auth, configId)
  const row = await repo.resendDelivery(ctx.db, config.id, deliveryId, ctx.clock.now())
  if (!row) throw notFound()
  return { ...presentDelivery(row), agency_name: config.agency_name }
}

/** Queues a webhook.test event for the endpoint (after what it has pending) and answers its delivery. */
export async function sendTest(ctx: AppContext, auth: AuthContext, configId: number) {
  const config = await configInScope(ctx, auth, configId)
  if (!config.push_url || config.push_disabled_reason || config.state !== 1)
    throw invalid('WEBHOOK_NO_ENDPOINT')
  const now = ctx.clock.now()
  const row = await repo.insertDelivery(
    ctx.db,
    {
      config_id: config.id,
      event: 'webhook.test',
      event_key: `webhook:test:${crypto.randomUUID()}`,
      event_time: now.toISOString(),
      payload: webhookBody('webhook.test', now, {
        config_id: config.id,
        agency_id: config.agency_id,
        message: 'AED Cloud test event',
      }),
      create_time: now.toISOString(),
    },
    now,
  )
  return { ...presentDelivery(row as repo.DeliveryRow), agency_name: config.agency_name }
}
