import { z } from 'zod'

// Field rules several forms, filters and rows hold alike, written once so that a change to one
// (a length, a message) reaches every place that shows or checks that field.

/** Reads an empty form or query value as not given. */
export const emptyAsUnset = (v: unknown) => (v === '' ? undefined : v)

/** Reads '' and null alike as not given (a body may send null for a cleared picker). */
export const blankAsUnset = (v: unknown) => (v === '' || v === null ? undefined : v)

/** An optional whole number in [min, max], coerced from the query string; `unset` values are absent. */
export const optionalInt = (min: number, max: number, unset = emptyAsUnset) =>
  z.preprocess(unset, z.coerce.number().int().min(min).max(max).optional())

/** An optional id filter (an organisation, a manager). */
export const optionalId = (unset = emptyAsUnset) => optionalInt(1, Number.MAX_SAFE_INTEGER, unset)

/** A list's free-text filter (a part of a serial, a name): trimmed, at most 50 characters. */
export const textFilter = z.string().trim().max(50, 'FILTER_TOO_LONG').optional()

/** A region code filter (province, city or district): the rows in it and below it. */
export const regionFilter = z.preprocess(
  emptyAsUnset,
  z
    .string()
    .regex(/^\d{2,6}$/, 'INVALID_INPUT')
    .optional(),
)

/** A YYYY-MM-DD date of a filter. */
export const isoDate = z.iso.date({ message: 'DATE_INVALID' })

/** One optional end of a date range (YYYY-MM-DD, inclusive); `unset` values are absent. */
export const optionalDate = (unset = emptyAsUnset) => z.preprocess(unset, isoDate.optional())

/** `export_xls=true`: the list answers the file of every matching row instead of a page. */
export const exportXls = z
  .enum(['true', 'false'])
  .transform((v) => v === 'true')
  .optional()

/** A number of rows or devices (a statistic, an export, what a clean-up deleted). */
export const count = z.number().int()

/** What an export answers: the file to download and how many rows it holds. */
export const exportAnswer = z.object({ file_url: z.string(), count })

/** The answer of a list that `export_xls=true` turns into a file. */
export const pageOrExport = <T extends z.ZodType>(page: T) => z.union([page, exportAnswer])

/** A required text field: trimmed, not empty (`requiredKey` for missing or empty), at most `max` long. */
export const requiredText = (requiredKey: string, max: number, tooLongKey = 'TEXT_TOO_LONG') =>
  z.string({ message: requiredKey }).trim().min(1, requiredKey).max(max, tooLongKey)

/** An optional text field a form may clear (null). */
export const optionalText = (max: number) => z.string().trim().max(max, 'TEXT_TOO_LONG').nullable().optional()

/** The organisation picked in a device or cabinet form. */
export const agencyPick = z.number({ message: 'DEVICE_AGENCY_REQUIRED' }).int().positive()

/** The ids of a toolbar's batch assign (at most 1000; none is DEVICE_ASSIGN_EMPTY). */
export const assignIds = z.array(z.number().int().positive(), { message: 'DEVICE_ASSIGN_EMPTY' }).max(1000)

/** A district code a form may leave out; `message` when it is not six digits. */
export const optionalDistrict = (message: string) =>
  z
    .string()
    .regex(/^\d{6}$/, message)
    .nullable()
    .optional()

/** A picked point (GCJ-02) of a form; `message` when it is missing. */
export const pointInput = (message: string) => ({
  lat: z.number({ message }).min(-90).max(90),
  lon: z.number({ message }).min(-180).max(180),
})

/** A point a row may not have yet (never reported, never picked). */
export const pointOrNull = { lat: z.number().nullable(), lon: z.number().nullable() }

/** The organisation a row belongs to. */
export const agencyFields = { agency_id: z.number().int(), agency_name: z.string() }
