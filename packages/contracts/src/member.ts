import { z } from 'zod'
import { PASSWORD_RULE } from './auth.ts'
import { del, get, idParams, post, put } from './endpoint.ts'
import { paged, pageQuery } from './envelope.ts'
import {
  agencyFields,
  optionalDistrict,
  pointInput,
  pointOrNull,
  requiredText,
  textFilter,
} from './fields.ts'
import { permissionsSchema, roleTypeSchema } from './permissions.ts'

/** The user form's email rule: word characters, @, a domain with a dot. */
export const EMAIL_RULE = /^\w+([-+.]\w+)*@\w+([-.]\w+)*\.\w+([-.]\w+)*$/

/** Usage periods offered by the authority dialog, in days. */
export const USAGE_PERIODS = [3, 7, 14, 30] as const

export const memberAccountForm = z.object({
  name: requiredText('USER_NAME_REQUIRED', 50),
  phone: z
    .string({ message: 'CONTACT_PHONE_REQUIRED' })
    .transform((s) => s.replace(/\s+/g, ''))
    .pipe(
      z
        .string()
        .min(1, 'CONTACT_PHONE_REQUIRED')
        .regex(/^\d{11}$/, 'CONTACT_PHONE_WRONG'),
    ),
  email: requiredText('EMAIL_REQUIRED', 100).regex(EMAIL_RULE, 'EMAIL_WRONG'),
  nationality: z.string({ message: 'NATIONALITY_REQUIRED' }).regex(/^[A-Z]{2}$/, 'NATIONALITY_REQUIRED'),
  location: requiredText('RESIDENCE_REQUIRED', 200),
  address_code: optionalDistrict('ADDRESS_PICK'),
  ...pointInput('ADDRESS_PICK'),
  birth: z.iso.date().nullable().optional(),
  gender: z
    .union([z.literal(1), z.literal(2)])
    .nullable()
    .optional(),
  /** Only for a new account; without one the person signs in by SMS code or sets one via forgot password. */
  password: z.string().regex(PASSWORD_RULE, 'PASSWORD_RULE').optional(),
})

/** The add / edit user dialog. */
export const memberForm = z.object({
  account: memberAccountForm,
  agency_id: z.number({ message: 'MEMBER_AGENCY_REQUIRED' }).int().positive(),
  role_type: z.union([z.literal(0), z.literal(1), z.literal(2)], { message: 'ROLE_REQUIRED' }),
  permissions: permissionsSchema.default({}),
  use_expire: z.iso.datetime({ offset: true }).nullable().optional(),
})
export type MemberForm = z.infer<typeof memberForm>

/** The authority dialog (权限管理): permissions and usage period only. */
export const memberAuthorityForm = z.object({
  permissions: permissionsSchema,
  use_expire: z.iso.datetime({ offset: true }).nullable(),
})

/** A person's profile besides name and phone, as the user dialog shows it. */
const profile = z.object({
  email: z.string().nullable(),
  nationality: z.string().nullable(),
  location: z.string().nullable(),
  address_code: z.string().nullable(),
  ...pointOrNull,
  birth: z.string().nullable(),
  gender: z.number().nullable(),
})

export const memberSchema = z.object({
  id: z.number().int(),
  account: z.object({
    id: z.number().int(),
    name: z.string(),
    /** Masked in lists, whole in the detail. */
    phone: z.string(),
    ...profile.shape,
  }),
  ...agencyFields,
  role_type: roleTypeSchema,
  permissions: permissionsSchema,
  use_expire: z.string().nullable(),
  creator: z.string().nullable(),
  create_time: z.string(),
  updator: z.string().nullable(),
  update_time: z.string(),
  /** What the signed-in member may do with this user (computed on the server). */
  can: z.object({ edit: z.boolean(), delete: z.boolean() }),
})
export type Member = z.infer<typeof memberSchema>

/** What the signed-in member may do on the user page (computed on the server): add users with EDIT on users. */
export const memberListCanSchema = z.object({ create: z.boolean() })

export const memberListQuery = pageQuery.extend({
  name: textFilter,
  phone: textFilter,
  role: z.coerce.number().int().min(0).max(2).optional(),
  agency: z.coerce.number().int().positive().optional(),
  /** Manager pickers list only administrators (role_type 0 and 1). */
  exclude_general: z
    .enum(['true', 'false', '1', '0'])
    .transform((v) => v === 'true' || v === '1')
    .optional(),
})

export type MemberListQuery = z.output<typeof memberListQuery>

export const accountLookupSchema = z.object({
  exists: z.boolean(),
  /** The whole profile when every membership of the account is in the caller's subtree; else null. */
  account: z
    .object({ name: z.string(), ...profile.partial().shape, location_desc: z.string().nullable().optional() })
    .nullable(),
})

/** The deleted user, for the operation log. */
export const memberDeleted = z.object({ id: z.number(), name: z.string(), agency_name: z.string() })

/** Every call of the users page. */
export const memberApi = {
  list: get('/api/v1/member/', {
    summary: 'Users of the subtree (phones and emails masked)',
    query: memberListQuery,
    response: paged(memberSchema).extend({ can: memberListCanSchema }),
  }),
  detail: get('/api/v1/member/:id', {
    summary: 'One user',
    params: idParams,
    response: memberSchema,
  }),
  lookupAccount: get('/api/v1/account/:phone', {
    summary: 'Look up a person by phone to prefill the user dialog',
    params: z.object({ phone: z.string() }),
    response: accountLookupSchema,
  }),
  create: post('/api/v1/member', {
    summary: 'Add a user',
    body: memberForm,
    response: memberSchema,
  }),
  update: put('/api/v1/member/:id', {
    summary: 'Edit a user (phone locked)',
    params: idParams,
    body: memberForm,
    response: memberSchema,
  }),
  setAuthority: put('/api/v1/member/:id/authority/', {
    summary: 'Set a user’s permissions and usage period (权限管理)',
    params: idParams,
    body: memberAuthorityForm,
    response: memberSchema,
  }),
  remove: del('/api/v1/member/:id', {
    summary: 'Delete a user from an organisation',
    params: idParams,
    response: memberDeleted,
  }),
}
