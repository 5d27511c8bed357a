import { z } from 'zod'
import type { Label } from './constants.ts'
import { get, idParams, put } from './endpoint.ts'
import { paged, pageQuery } from './envelope.ts'
import {
  blankAsUnset,
  exportXls,
  optionalDate,
  optionalId,
  optionalInt,
  pageOrExport,
  textFilter,
} from './fields.ts'
import type { Lang } from './messages.ts'

// The four event pages (spec 2.4, 3, 7): one list per kind of device condition, its current
// (open) events and its history (closed), with export, and handling for faults and offsets.

/** Kinds of device_events: early warning, fault, location offset, offline. */
export const EVENT_KINDS = ['warning', 'fault', 'offset', 'offline'] as const
export type EventKind = (typeof EVENT_KINDS)[number]

/** Kinds a member handles with a note (a warning or an offline clears by itself). */
export const HANDLED_KINDS: readonly EventKind[] = ['fault', 'offset']

/** Days an export covers when no dates are given: the last 180 (spec section 5). */
export const EVENT_EXPORT_DAYS = 180

/** The file each page's export downloads as. */
export const EVENT_EXPORT_FILE_NAMES: Readonly<Record<EventKind, string>> = {
  warning: '预警事件.xlsx',
  fault: '故障事件.xlsx',
  offset: '位置偏移事件.xlsx',
  offline: '离线事件.xlsx',
}

/** The page titles (as the menu names them), for sheets and headings. */
export const EVENT_PAGE_TITLES: Readonly<Record<EventKind, Label>> = {
  warning: ['预警事件', 'Early warnings'],
  fault: ['故障事件', 'Faults'],
  offset: ['位置偏移事件', 'Location offsets'],
  offline: ['离线事件', 'Offline'],
}

/** Longest handling note. */
export const HANDLE_NOTE_MAX = 500

/** Filters of every event page. */
const eventListFields = pageQuery.extend({
  /** Part of the serial. */
  device_sn: textFilter,
  /** The device manager of the installation. */
  manager_id: optionalId(blankAsUnset),
  /** An organisation of the caller's scope: its events and those of its subtree. */
  agency_id: optionalId(blankAsUnset),
  /** Part of the installation's address. */
  install_location: z.string().trim().max(200, 'TEXT_TOO_LONG').optional(),
  /** When the event began, YYYY-MM-DD inclusive, in the organisations' time zone. */
  start_time: optionalDate(blankAsUnset),
  end_time: optionalDate(blankAsUnset),
  /** true (default): the open events; false: the history of closed ones. */
  current: z
    .enum(['true', 'false'])
    .default('true')
    .transform((v) => v === 'true'),
  /** true: answer `data.file_url` of an .xlsx of every matching row (default the last 180 days). */
  export_xls: exportXls,
})

const ordered = <T extends { start_time?: string; end_time?: string }>(q: T, ctx: z.RefinementCtx) => {
  if (q.start_time && q.end_time && q.start_time > q.end_time)
    ctx.addIssue({ code: 'custom', path: ['start_time'], message: 'DATE_ORDER' })
}

/** The early-warning, location-offset and offline pages' filters. */
export const eventListQuery = eventListFields.superRefine(ordered)
/** The fault page's filters: also the self-test that found it. */
export const faultListQuery = eventListFields
  .extend({
    /** -1 user inspection, 0 power-on, 1 standby, 2 user self-test. */
    report_type: optionalInt(-1, 2, blankAsUnset),
  })
  .superRefine(ordered)
export type EventListQuery = z.output<typeof faultListQuery>

/** What every event row shows: the device, its site, manager and organisation, and for history how long it lasted. */
const eventBase = {
  id: z.number().int(),
  device_id: z.number().int(),
  device_sn: z.string(),
  model: z.string(),
  /** The installation's address (and detail) where it happened. */
  location: z.string().nullable(),
  /** The device manager's name. */
  manager: z.string().nullable(),
  agency_name: z.string(),
  /** When it ended (history); null while it is current. */
  closed_at: z.string().nullable(),
  /** Seconds from its start to its end (history only). */
  duration: z.number().int().nullable(),
  /** The duration as text: '2小时5分'. */
  duration_text: z.string().nullable(),
}

/** What a warning said, when it began, and when it stopped holding (history). */
export const warningFields = {
  content: z.string().nullable(),
  event_time: z.string(),
  invalid_time: z.string().nullable(),
}

/** Who handled a fault or an offset, the note, and when; null until someone does. */
export const handledByFields = {
  handler_name: z.string().nullable(),
  handle_note: z.string().nullable(),
  handle_time: z.string().nullable(),
}

const handling = {
  ...handledByFields,
  /** What the caller may do with it. */
  can: z.object({ handle: z.boolean() }),
}

/** The self-test that found a fault: -1 user inspection, 0 power-on, 1 standby, 2 user self-test. */
export const faultSourceFields = {
  report_type: z.number().int().nullable(),
  report_type_text: z.string().nullable(),
}

/** Where an offset device was found, how far from its site, and when. */
export const offsetFields = {
  /** The installation's address when the offset was found. */
  install_location: z.string().nullable(),
  /** Where the device was found (GCJ-02) and its address. */
  offset_location: z.string().nullable(),
  offset_lat: z.number().nullable(),
  offset_lon: z.number().nullable(),
  /** Metres between the site and the fix. */
  offset_distance: z.number().int().nullable(),
  event_time: z.string(),
}

/** A row of 预警事件. */
export const earlyWarnEventSchema = z.object({
  ...eventBase,
  /** The warning's code (WARNING_CODES). */
  event_code: z.string(),
  /** The code's label. */
  event_type: z.string(),
  ...warningFields,
})
export type EarlyWarnEvent = z.infer<typeof earlyWarnEventSchema>

/** A row of 故障事件. */
export const faultEventSchema = z.object({
  ...eventBase,
  ...handling,
  ...faultSourceFields,
  fault_code: z.string(),
  fault_desc: z.string(),
  /** Code and description: 'E02 电池故障'. */
  fault: z.string(),
  check_time: z.string(),
})
export type FaultEvent = z.infer<typeof faultEventSchema>

/** A row of 位置偏移事件. */
export const offsetEventSchema = z.object({
  ...eventBase,
  ...handling,
  ...offsetFields,
  /** Who confirmed its message in the message centre, and when. */
  seen_by: z.string().nullable(),
  seen_time: z.string().nullable(),
})
export type OffsetEvent = z.infer<typeof offsetEventSchema>

/** A row of 离线事件. */
export const offlineEventSchema = z.object({
  ...eventBase,
  offline_time: z.string(),
})
export type OfflineEvent = z.infer<typeof offlineEventSchema>

/** Any page's row. */
export type EventRowOf = {
  warning: EarlyWarnEvent
  fault: FaultEvent
  offset: OffsetEvent
  offline: OfflineEvent
}

/** PUT body: marks a fault or an offset handled. */
export const handleEventBody = z.object({
  handle_note: z
    .string({ message: 'HANDLE_NOTE_REQUIRED' })
    .trim()
    .min(1, 'HANDLE_NOTE_REQUIRED')
    .max(HANDLE_NOTE_MAX, 'HANDLE_NOTE_TOO_LONG'),
})

/** The handled event as the operation log and the dialog read it. */
export const handledEventSchema = z.object({
  id: z.number().int(),
  kind: z.enum(EVENT_KINDS),
  device_sn: z.string(),
  handler_name: z.string(),
  handle_note: z.string(),
  handle_time: z.string(),
})
export type HandledEvent = z.infer<typeof handledEventSchema>

/**
 * What the signed-in member may do on an event page (computed on the server): export, and handle
 * faults and offsets (each row's `can.handle` says which), with EDIT on devices.
 */
export const eventListCanSchema = z.object({ export: z.boolean(), handle: z.boolean() })
export type EventListCan = z.infer<typeof eventListCanSchema>

const listOf = <T extends z.ZodType>(row: T) => pageOrExport(paged(row).extend({ can: eventListCanSchema }))

/** The event pages' calls. */
export const eventApi = {
  earlyWarn: get('/api/v1/device/event-mgmt/early-warn', {
    summary: 'Early warnings of the subtree (current=false: history); export_xls=true answers data.file_url',
    query: eventListQuery,
    response: listOf(earlyWarnEventSchema),
  }),
  fault: get('/api/v1/device/event-mgmt/fault', {
    summary: 'Faults found by self-tests (current=false: history); export_xls=true answers data.file_url',
    query: faultListQuery,
    response: listOf(faultEventSchema),
  }),
  locationOffset: get('/api/v1/device/event-mgmt/location-offset', {
    summary: 'Location offsets (current=false: history); export_xls=true answers data.file_url',
    query: eventListQuery,
    response: listOf(offsetEventSchema),
  }),
  offline: get('/api/v1/device/event-mgmt/offline', {
    summary: 'Offline devices (current=false: history); export_xls=true answers data.file_url',
    query: eventListQuery,
    response: listOf(offlineEventSchema),
  }),
  handle: put('/api/v1/device/event-mgmt/:id', {
    summary: 'Mark a fault or a location offset handled, with a note',
    params: idParams,
    body: handleEventBody,
    response: handledEventSchema,
  }),
}

/** The list endpoint of each kind. */
export const EVENT_LIST_ENDPOINTS = {
  warning: eventApi.earlyWarn,
  fault: eventApi.fault,
  offset: eventApi.locationOffset,
  offline: eventApi.offline,
} as const

/** A duration in seconds as people say it: '45秒', '12分', '2小时5分', '3天4小时'. */
export function formatDuration(seconds: number, lang: Lang = 'zh-CN'): string {
  const s = Math.max(0, Math.floor(seconds))
  const zh = lang !== 'en-US'
  const [d, h, m] = [Math.floor(s / 86_400), Math.floor((s % 86_400) / 3600), Math.floor((s % 3600) / 60)]
  const part = (n: number, cn: string, en: string) => (zh ? `${n}${cn}` : `${n} ${en}`)
  const join = (parts: string[]) => parts.join(zh ? '' : ' ')
  if (d > 0) return join([part(d, '天', 'd'), ...(h ? [part(h, '小时', 'h')] : [])])
  if (h > 0) return join([part(h, '小时', 'h'), ...(m ? [part(m, '分', 'min')] : [])])
  if (m > 0) return part(m, '分', 'min')
  return part(s, '秒', 's')
}
