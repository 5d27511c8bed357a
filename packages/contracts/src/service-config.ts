import { z } from 'zod'
import { APP_SERVICES } from './constants.ts'
import { endpoint, idParams } from './endpoint.ts'
import { paged, pageQuery } from './envelope.ts'

const serviceKeys = z
  .array(z.string(), { message: 'SERVICE_REQUIRED' })
  .min(1, 'SERVICE_EMPTY')
  .refine((keys) => keys.every((k) => Object.hasOwn(APP_SERVICES, k)), 'SERVICE_UNKNOWN')
  .transform((keys) => [...new Set(keys)])

/**
 * Where webhooks go: an http(s) URL (the server also refuses private addresses), '' or null for
 * none; absent leaves a saved configuration's URL as it is.
 */
const pushUrl = z
  .string({ message: 'PUSH_URL_INVALID' })
  .trim()
  .max(500, 'PUSH_URL_INVALID')
  .refine((u) => u === '' || /^https?:\/\/[^\s/?#]+[^\s]*$/i.test(u), 'PUSH_URL_INVALID')
  .nullish()
  .transform((u) => (u === undefined ? undefined : u || null))

/** Create form of an organisation's service configuration. */
export const serviceConfigCreate = z.object({
  agency_id: z.number({ message: 'AGENCY_NAME_REQUIRED' }).int().positive(),
  service: serviceKeys,
  state: z.union([z.literal(0), z.literal(1)], { message: 'STATE_REQUIRED' }),
  /** Webhook endpoint (needs event_push or device_data_push). */
  push_url: pushUrl,
})

/** Modify form: services and state; `regenerate` issues a new secret and access token. */
export const serviceConfigUpdate = z.object({
  service: serviceKeys,
  state: z.union([z.literal(0), z.literal(1)], { message: 'STATE_REQUIRED' }),
  regenerate: z.boolean().optional(),
  push_url: pushUrl,
  /** Issues a new webhook secret (answered once); the old one stops at once. */
  regenerate_push_secret: z.boolean().optional(),
  /** Enables the push URL again after it was disabled (410, or failing for a day). */
  enable_push: z.boolean().optional(),
})

export const serviceConfigSchema = z.object({
  id: z.number().int(),
  agency_id: z.number().int(),
  agency_name: z.string(),
  /** Service keys. */
  service: z.array(z.string()),
  /** Service names in the requester's language. */
  service_list: z.array(z.string()),
  state: z.union([z.literal(0), z.literal(1)]),
  apply_time: z.string(),
  level: z.number().int(),
  /** Only in the detail opened for editing. */
  secret: z.string().optional(),
  access_token: z.string().optional(),
  /** Webhook endpoint, null when none. */
  push_url: z.string().nullable(),
  /** Why and when the push URL was disabled (gone: HTTP 410; failing: a day of failures); null while enabled. */
  push_disabled: z.object({ reason: z.enum(['gone', 'failing']), time: z.string() }).nullable(),
  /** The webhook secret (whsec_…): only in the answer that created it (creation, regeneration). */
  push_secret: z.string().optional(),
  /** Until when the previous secret still signs requests (24 h after a regeneration), null when none. */
  previous_secret_until: z.string().nullable().optional(),
})
export type ServiceConfig = z.infer<typeof serviceConfigSchema>

/** What the signed-in member may do on the service configuration page: system super administrators add and modify. */
export const serviceConfigListCanSchema = z.object({ create: z.boolean(), update: z.boolean() })
export type ServiceConfigListCan = z.infer<typeof serviceConfigListCanSchema>

export const serviceConfigListQuery = pageQuery.extend({
  agency_id: z.coerce.number().int().positive().optional(),
  service: z.string().optional(),
  start_time: z.iso.date().optional(),
  end_time: z.iso.date().optional(),
})
export type ServiceConfigListQuery = z.output<typeof serviceConfigListQuery>

/** One webhook delivery as the delivery log lists it. */
export const webhookDeliverySchema = z.object({
  id: z.number().int(),
  /** The Standard Webhooks id (webhook-id), the same on every attempt. */
  message_id: z.string(),
  event: z.string(),
  /** When the event happened. */
  event_time: z.string(),
  /** pending (waiting or retrying), delivered, failed (gave up), cancelled (endpoint disabled). */
  state: z.enum(['pending', 'delivered', 'failed', 'cancelled']),
  attempts: z.number().int(),
  /** The last attempt: when, its HTTP status (null: no answer), its error, how long it took. */
  last_attempt_time: z.string().nullable(),
  last_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  last_duration_ms: z.number().int().nullable(),
  /** When it is tried next (pending only). */
  next_attempt_time: z.string().nullable(),
  delivered_time: z.string().nullable(),
  payload: z.record(z.string(), z.unknown()),
})
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>

export const webhookDeliveryQuery = pageQuery.extend({
  state: z.enum(['pending', 'delivered', 'failed', 'cancelled']).optional(),
  event: z.string().max(64).optional(),
})

const deliveryParams = z.object({
  id: z.coerce.number().int().positive(),
  delivery_id: z.coerce.number().int().positive(),
})

/** Every call of the service configuration page (system super administrators only). */
export const serviceConfigApi = {
  list: endpoint({
    method: 'GET',
    path: '/api/v1/agency/app-service/config',
    summary: 'Service configurations',
    query: serviceConfigListQuery,
    response: paged(serviceConfigSchema).extend({ can: serviceConfigListCanSchema }),
  }),
  detail: endpoint({
    method: 'GET',
    path: '/api/v1/agency/app-service/config/:id',
    summary: 'One configuration with its credentials',
    params: idParams,
    response: serviceConfigSchema,
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/v1/agency/app-service/config',
    summary: 'Give an organisation services',
    body: serviceConfigCreate,
    response: serviceConfigSchema,
  }),
  update: endpoint({
    method: 'PUT',
    path: '/api/v1/agency/app-service/config/:id',
    summary: 'Change services or state; regenerate issues new credentials',
    params: idParams,
    body: serviceConfigUpdate,
    response: serviceConfigSchema,
  }),
  deliveries: endpoint({
    method: 'GET',
    path: '/api/v1/agency/app-service/config/:id/webhook/deliveries',
    summary: 'The webhook delivery log of a configuration, newest first',
    params: idParams,
    query: webhookDeliveryQuery,
    response: paged(webhookDeliverySchema),
  }),
  resend: endpoint({
    method: 'POST',
    path: '/api/v1/agency/app-service/config/:id/webhook/deliveries/:delivery_id/resend',
    summary: 'Send a delivery again now (same webhook-id)',
    params: deliveryParams,
    response: webhookDeliverySchema,
  }),
  test: endpoint({
    method: 'POST',
    path: '/api/v1/agency/app-service/config/:id/webhook/test',
    summary: 'Send a test event (webhook.test) to the push URL',
    params: idParams,
    response: webhookDeliverySchema,
  }),
}
