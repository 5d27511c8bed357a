import { z } from 'zod'
import { get, post, put } from './endpoint.ts'
import { paged } from './envelope.ts'
import { agencyFields } from './fields.ts'
import { agencyTypeSchema, type Permissions, permissionsSchema, roleTypeSchema } from './permissions.ts'

/** Mainland mobile as the login form checks it: 11 digits starting 1[2-9]. */
export const LOGIN_PHONE = /^1[2-9]\d{9}$/
/** The forgot-password form is stricter: 1[3-9]. */
export const FORGET_PHONE = /^1[3-9]\d{9}$/
/** 8-20 characters, at least one letter and one digit. */
export const PASSWORD_RULE = /^(?=.*[A-Za-z])(?=.*\d)[\x21-\x7e]{8,20}$/
/** Days after which a password is considered old and the console prompts a change. */
export const PASSWORD_MAX_AGE_DAYS = 90
export const SMS_RESEND_SECONDS = 60
export const SMS_CODE_TTL_SECONDS = 300

/** Strips every whitespace character, as the login forms do before sending. */
export const stripped = () => z.string().transform((s) => s.replace(/\s+/g, ''))

/** The login and SMS forms' mobile, stripped of spaces. */
const loginMobile = () => stripped().pipe(z.string().regex(LOGIN_PHONE, 'PHONE_INVALID'))
/** An SMS code a form must carry. */
const smsCode = () => stripped().pipe(z.string().min(1, 'SMS_CODE_REQUIRED'))
/** A new password: PASSWORD_RULE. */
const newPassword = () => z.string().regex(PASSWORD_RULE, 'PASSWORD_RULE')

/** login_way: 1 mobile and password, 2 mobile and SMS code. member_type is 3 for console users. */
export const loginRequest = z.object({
  mobile: loginMobile(),
  password: stripped().optional(),
  sms_code: stripped().optional(),
  login_way: z.union([z.literal(1), z.literal(2)], { message: 'LOGIN_WAY_INVALID' }),
  member_type: z.literal(3, { message: 'MEMBER_TYPE_INVALID' }),
})
export type LoginRequest = z.infer<typeof loginRequest>

/** One membership of the signed-in account: what the organisation picker and switcher list. */
export const membershipSchema = z.object({
  /** member id */
  id: z.number().int(),
  ...agencyFields,
  agency_type: agencyTypeSchema,
  role_type: roleTypeSchema,
  /** True for the membership the current token is bound to. */
  current: z.boolean(),
})
export type Membership = z.infer<typeof membershipSchema>

/** The session the console stores after sign-in or switching organisation. */
export const userInfoSchema = z.object({
  /** member id */
  id: z.number().int(),
  account_id: z.number().int(),
  phone: z.string(),
  ...agencyFields,
  agency_type: agencyTypeSchema,
  role_type: roleTypeSchema,
  token: z.string(),
  bind_wx: z.boolean(),
  user_name: z.string(),
  /** Role name in the requester's language. */
  role: z.string(),
  avatar: z.string().nullable(),
  agency_member_role: z.union([z.literal(0), z.literal(1)]),
  permissions: permissionsSchema,
  /** Areas the member can at least read: the console's stored permission list. */
  permission_list: z.array(z.string()),
  /** True when the password is older than 90 days: the console prompts a change. */
  password_expired: z.boolean(),
  /** Every active membership of the account; more than one makes the console show the picker. */
  agency_list: z.array(membershipSchema),
})
export type UserInfo = z.infer<typeof userInfoSchema> & { permissions: Permissions }

export const smsScene = z.enum(['login', 'forget', 'bind_wx'])
export const smsCodeRequest = z.object({
  mobile: loginMobile(),
  /** What the code is for; a code is accepted only for its own scene. */
  scene: smsScene.default('login'),
})
export const smsCodeResponse = z.object({ resend_after: z.number().int(), expire_in: z.number().int() })

export const resetPasswordRequest = z
  .object({
    password: newPassword(),
    password_again: z.string(),
    old_password: z.string().optional(),
  })
  .refine((v) => v.password === v.password_again, { message: 'PASSWORD_MISMATCH', path: ['password_again'] })

export const forgetPasswordRequest = z
  .object({
    phone: stripped().pipe(z.string().regex(FORGET_PHONE, 'FORGET_PHONE_INVALID')),
    sms_code: smsCode(),
    password: newPassword(),
    re_password: z.string(),
  })
  .refine((v) => v.password === v.re_password, { message: 'PASSWORD_MISMATCH', path: ['re_password'] })

export const switchMembershipRequest = z.object({ member_id: z.coerce.number().int().positive() })

export const wechatCodeRequest = z.object({ code: z.string().min(1), state: z.string().min(1) })
export const wechatBindRequest = wechatCodeRequest.extend({ sms_code: smsCode() })
/** What the console needs to draw the WeChat QR panel, or enabled false when no provider is set. */
export const wechatConfigSchema = z.object({
  enabled: z.boolean(),
  appid: z.string().nullable(),
  redirect_uri: z.string().nullable(),
  state: z.string().nullable(),
})

/** The signed-in account's own security settings. */
export const securitySchema = z.object({
  /** Password sign-in also asks for an SMS code. */
  sms_dual_verify: z.boolean(),
  bind_wx: z.boolean(),
  /** When the password last changed (ISO), null when the account has none. */
  password_changed_at: z.string().nullable(),
})
export const securityUpdate = z.object({
  sms_dual_verify: z.boolean(),
  /** The current password confirms the change. */
  password: z.string().min(1, 'PASSWORD_REQUIRED'),
})

/** Sign-in, SMS codes, organisation switching, passwords and the account's security settings. */
export const authApi = {
  login: post('/api/v1/member/login', {
    summary: 'Sign in',
    body: loginRequest,
    response: userInfoSchema,
  }),
  smsCode: post('/api/v1/system/sms-code/', {
    summary: 'Send an SMS verification code',
    body: smsCodeRequest,
    response: smsCodeResponse,
  }),
  memberships: get('/api/v1/member/current-list/', {
    summary: 'Organisations of the signed-in account',
    response: paged(membershipSchema),
  }),
  switchMembership: post('/api/v1/member/current-list/', {
    summary: 'Switch organisation: a new token for another membership of the account',
    body: switchMembershipRequest,
    response: userInfoSchema,
  }),
  resetPassword: post('/api/v1/member/reset-password/', {
    summary: 'Change password (ends the account’s other sessions)',
    body: resetPasswordRequest,
    response: z.object({ token: z.string() }),
  }),
  forgetPassword: post('/api/v1/member/forget-password/', {
    summary: 'Set a new password with an SMS code',
    body: forgetPasswordRequest,
    response: z.null(),
  }),
  security: get('/api/v1/member/security/', {
    summary: 'Security settings of the signed-in account',
    response: securitySchema,
  }),
  setSecurity: put('/api/v1/member/security/', {
    summary: 'Switch SMS dual verification, confirmed by the current password',
    body: securityUpdate,
    response: securitySchema,
  }),
}

/** WeChat QR sign-in, bind and unbind. */
export const wechatApi = {
  config: get('/api/v1/third-party/wechat/config', {
    summary: 'Whether WeChat sign-in is configured, and a one-time state for the QR code',
    query: z.object({ purpose: z.enum(['login', 'bind']).default('login') }),
    response: wechatConfigSchema,
  }),
  login: post('/api/v1/third-party/wechat/login', {
    summary: 'Sign in with a WeChat scan',
    body: wechatCodeRequest,
    response: userInfoSchema,
  }),
  bind: post('/api/v1/third-party/wechat/bind', {
    summary: 'Bind WeChat to this account',
    body: wechatBindRequest,
    response: z.null(),
  }),
  unbind: post('/api/v1/third-party/wechat/unbind', {
    summary: 'Unbind WeChat from this account',
    response: z.null(),
  }),
}
