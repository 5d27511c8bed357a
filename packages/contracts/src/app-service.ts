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
export const appServiceCreate = z.object({
  agency_id: z.number({ message: 'AGENCY_NAME_REQUIRED' }).int().positive(),
  service: serviceKeys,
  state: z.union([z.literal(0), z.literal(1)], { message: 'STATE_REQUIRED' }),
})

/** Modify form: services and state; `regenerate` issues a new secret and access token. */
export const appServiceUpdate = z.object({
  service: serviceKeys,
  state: z.union([z.literal(0), z.literal(1)], { message: 'STATE_REQUIRED' }),
  regenerate: z.boolean().optional(),
})

export const appServiceSchema = z.object({
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
export type AppService = z.infer<typeof appServiceSchema>

/** What the signed-in member may do on the service configuration page: system super administrators add and modify. */
export const appServiceListCanSchema = z.object({ create: z.boolean(), update: z.boolean() })
export type AppServiceListCan = z.infer<typeof appServiceListCanSchema>

export const appServiceListQuery = pageQuery.extend({
  agency_id: z.coerce.number().int().positive().optional(),
  service: z.string().optional(),
  start_time: z.iso.date().optional(),
  end_time: z.iso.date().optional(),
})
export type AppServiceListQuery = z.output<typeof appServiceListQuery>

/** Every call of the service configuration page (system super administrators only). */
export const appServiceApi = {
  list: endpoint({
    method: 'GET',
    path: '/api/v1/agency/app-service/config',
    summary: 'Service configurations',
    query: appServiceListQuery,
    response: paged(appServiceSchema).extend({ can: appServiceListCanSchema }),
  }),
  detail: endpoint({
    method: 'GET',
    path: '/api/v1/agency/app-service/config/:id',
    summary: 'One configuration with its credentials',
    params: idParams,
    response: appServiceSchema,
  }),
  create: endpoint({
    method: 'POST',
    path: '/api/v1/agency/app-service/config',
    summary: 'Give an organisation services',
    body: appServiceCreate,
    response: appServiceSchema,
  }),
  update: endpoint({
    method: 'PUT',
    path: '/api/v1/agency/app-service/config/:id',
    summary: 'Change services or state; regenerate issues new credentials',
    params: idParams,
    body: appServiceUpdate,
    response: appServiceSchema,
  }),
}
