import { z } from 'zod'
import { APP_SERVICES } from './constants.ts'
import { endpoint, idParams } from './endpoint.ts'
import { paged, pageQuery } from './envelope.ts'

const serviceKeys = z
  .array(z.string(), { message: 'SERVICE_REQUIRED' })
  .min(1, 'SERVICE_EMPTY')
  .refine((keys) => keys.every((k) => Object.hasOwn(APP_SERVICES, k)), 'SERVICE_UNKNOWN')
  .transform((keys) => [...new Set(keys)])

/** Create form of an organisation's service configuration. */
export const serviceConfigCreate = z.object({
  agency_id: z.number({ message: 'AGENCY_NAME_REQUIRED' }).int().positive(),
  service: serviceKeys,
  state: z.union([z.literal(0), z.literal(1)], { message: 'STATE_REQUIRED' }),
})

/** Modify form: services and state; `regenerate` issues a new secret and access token. */
export const serviceConfigUpdate = z.object({
  service: serviceKeys,
  state: z.union([z.literal(0), z.literal(1)], { message: 'STATE_REQUIRED' }),
  regenerate: z.boolean().optional(),
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
}
