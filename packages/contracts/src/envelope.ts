import { z } from 'zod'

/** Response codes shared by server and console. 0 is success; every other value is an error. */
export const Code = {
  OK: 0,
  /** Missing, invalid or expired token: the console clears the session. */
  TOKEN: -1,
  /** The signed-in member lacks the permission: the console shows 无权限操作！. */
  FORBIDDEN: -2,
  /** Bad input: msg says what is wrong in the spec's words. */
  INVALID: 1,
  NOT_FOUND: 2,
  CONFLICT: 3,
  /** Too many attempts (SMS sends, sign-ins). */
  RATE_LIMITED: 4,
  /** The account is locked after repeated failed sign-ins. */
  LOCKED: 5,
  /** An outside provider (WeChat, map vendor) is not configured or did not answer. */
  PROVIDER_UNAVAILABLE: 6,
  /** Password sign-in needs an SMS code as a second factor for this account. */
  NEED_SMS_CODE: 7,
  INTERNAL: 500,
} as const
export type CodeValue = (typeof Code)[keyof typeof Code]

/** Wraps a data schema in the `{code, msg, data}` envelope every response uses. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ code: z.number().int(), msg: z.string(), data })
}

/** Shape of every paged list: `data.count` and `data.resource`. */
export function paged<T extends z.ZodType>(item: T) {
  return z.object({ count: z.number().int(), resource: z.array(item) })
}

/** A list's page size: at most `max` rows a page, `byDefault` when the query gives none. */
export const pageSize = (max: number, byDefault: number) =>
  z.coerce.number().int().min(1).max(max).default(byDefault)

/** Query fields every list accepts. */
export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  page_size: pageSize(500, 10),
  /** A sortable field of the list, '-' first for descending. */
  order_by: z
    .string()
    .regex(/^-?[a-z_]+$/, 'ORDER_INVALID')
    .optional(),
})

export const emptyData = z.object({}).passthrough().nullable()

export type Envelope<T> = { code: number; msg: string; data: T }
export type Paged<T> = { count: number; resource: T[] }
