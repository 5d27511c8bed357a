import { z } from 'zod'
import { get, idParams, post, put } from './endpoint.ts'
import { paged, pageQuery } from './envelope.ts'
import { optionalText, requiredText, textFilter } from './fields.ts'
import { agencyTypeSchema } from './permissions.ts'

/** Agency phones may be landlines: digits and dashes. */
export const AGENCY_PHONE = /^[0-9-]{5,20}$/

/** The create / modify form of an organisation. */
export const agencyForm = z.object({
  name: requiredText('AGENCY_NAME_REQUIRED', 100),
  agency_type: z.union([z.literal(0), z.literal(1), z.literal(2)], { message: 'AGENCY_TYPE_REQUIRED' }),
  /** null: directly under the acting member's own agency. */
  parent_id: z.number().int().positive().nullable().optional(),
  contact_name: requiredText('AGENCY_CONTACT_REQUIRED', 50),
  phone: requiredText('AGENCY_PHONE_REQUIRED', 20).pipe(z.string().regex(AGENCY_PHONE, 'PHONE_WRONG')),
  /** Detail address. */
  location: optionalText(200),
  /** District-level region code. */
  address_code: z.string({ message: 'ADDRESS_TO_DISTRICT' }).regex(/^\d{6}$/, 'ADDRESS_TO_DISTRICT'),
})
export type AgencyForm = z.infer<typeof agencyForm>

/** An organisation as lists and details show it. */
export const agencySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  agency_type: agencyTypeSchema,
  parent_id: z.number().int().nullable(),
  parent_name: z.string().nullable(),
  /** Depth in the tree, 1 for the root: shown as 'N级机构'. */
  level: z.number().int(),
  /** Masked in lists (3 + **** + 4), whole in the detail. */
  phone: z.string().nullable(),
  contact_name: z.string().nullable(),
  location: z.string().nullable(),
  address_code: z.string().nullable(),
  /** Full region name of address_code, e.g. 浙江省杭州市西湖区. */
  address_name: z.string().nullable(),
  index_link: z.string(),
  /** Disabled itself; `effective_disabled` also counts a disabled agency above. */
  disabled: z.boolean(),
  effective_disabled: z.boolean(),
  create_time: z.string(),
  /** What the signed-in member may do with this row (computed on the server). */
  can: z.object({ edit: z.boolean(), disable: z.boolean() }),
})
export type Agency = z.infer<typeof agencySchema>

/** What the signed-in member may do on the organisation page (computed on the server): add with EDIT on system management. */
export const agencyListCanSchema = z.object({ create: z.boolean() })

export const agencyListQuery = pageQuery.extend({
  name: textFilter,
  /** Only this subtree (a node of the tree). */
  index_link: z
    .string()
    .regex(/^(\/\d+)+\/$/, 'INVALID_INPUT')
    .optional(),
  agency_type: z.coerce.number().int().min(0).max(2).optional(),
})

export type AgencyListQuery = z.output<typeof agencyListQuery>

/** A node of the organisation tree (`GET /api/v1/agency/hierarchy/`). */
export type AgencyNode = {
  id: number
  name: string
  index_link: string
  agency_type: number
  level: number
  disabled: boolean
  kids: AgencyNode[]
}
export const agencyNodeSchema: z.ZodType<AgencyNode> = z.lazy(() =>
  z.object({
    id: z.number().int(),
    name: z.string(),
    index_link: z.string(),
    agency_type: z.number().int(),
    level: z.number().int(),
    disabled: z.boolean(),
    kids: z.array(agencyNodeSchema),
  }),
)

export { idParams }
export const agencyStateBody = z.object({ disabled: z.boolean() })

/** The answer of disabling or enabling an organisation. */
export const agencyStateSchema = z.object({ id: z.number(), name: z.string(), disabled: z.boolean() })

/** Every call of the organisations page. */
export const agencyApi = {
  tree: get('/api/v1/agency/hierarchy/', {
    summary: 'The organisation tree of the member’s subtree',
    response: z.object({ resource: z.array(agencyNodeSchema) }),
  }),
  list: get('/api/v1/agency/', {
    summary: 'Organisations of the member’s subtree (phones masked)',
    query: agencyListQuery,
    response: paged(agencySchema).extend({ can: agencyListCanSchema }),
  }),
  detail: get('/api/v1/agency/:id', {
    summary: 'One organisation',
    params: idParams,
    response: agencySchema,
  }),
  create: post('/api/v1/agency/', {
    summary: 'Create an organisation',
    body: agencyForm,
    response: agencySchema,
  }),
  update: put('/api/v1/agency/:id', {
    summary: 'Modify an organisation',
    params: idParams,
    body: agencyForm,
    response: agencySchema,
  }),
  setState: put('/api/v1/agency/:id/state/', {
    summary: 'Disable (with every organisation below) or enable an organisation',
    params: idParams,
    body: agencyStateBody,
    response: agencyStateSchema,
  }),
}
