import { z } from 'zod'
import { get } from './endpoint.ts'
import { paged, pageQuery } from './envelope.ts'
import { agencyFields, emptyAsUnset, regionFilter } from './fields.ts'

// 急救事件 (rescue events): an AED opened and used, as the engine records it from the device.
// The emergency page's second tab, with the call it answered and the AED's way back.

/** A rescue as the emergency page lists it (spec 3: event_location ... event_lon, and more). */
export const rescueRowSchema = z.object({
  id: z.number().int(),
  /** The device's own id of the use (the detail's usage log and the ECG file are keyed by it). */
  rescue_event_id: z.string(),
  event_location: z.string().nullable(),
  /** 'YYYY-MM-DD HH:mm:ss'. */
  event_time: z.string(),
  ended_at: z.string().nullable(),
  device_id: z.number().int(),
  device_sn: z.string(),
  model: z.string(),
  /** The installation's address. */
  location: z.string().nullable(),
  /** The installation's name (site). */
  name: z.string().nullable(),
  ...agencyFields,
  event_lat: z.number().nullable(),
  event_lon: z.number().nullable(),
  /** True when the device uploaded its ECG. */
  has_ecg: z.boolean(),
  ecg_file_url: z.string().nullable(),
  /** The call it answered, when one was linked. */
  call: z.object({ id: z.number().int(), call_time: z.string(), location: z.string() }).nullable(),
  /**
   * The AED's way back when it came from a cabinet: out (left, not back), returned, not_returned
   * (past its due time); null when it did not come from a cabinet.
   */
  return_state: z.enum(['out', 'returned', 'not_returned']).nullable(),
})
export type RescueRow = z.infer<typeof rescueRowSchema>

const moment = z.preprocess(
  emptyAsUnset,
  z.iso.datetime({ offset: true, message: 'DATE_INVALID' }).optional(),
)

export const rescueListQuery = pageQuery
  .extend({
    device_sn: z.string().trim().max(50, 'FILTER_TOO_LONG').optional(),
    address_code: regionFilter,
    start_time: moment,
    end_time: moment,
  })
  .refine((q) => !q.start_time || !q.end_time || Date.parse(q.start_time) <= Date.parse(q.end_time), {
    message: 'DATE_ORDER',
  })
export type RescueListQuery = z.output<typeof rescueListQuery>

/** The ECG download's query (spec 7): which device's which rescue, and the URL the list gave. */
export const rescueFileQuery = z.object({
  device_sn: z.string().trim().max(50).optional(),
  rescue_event_id: z.string({ message: 'INVALID_INPUT' }).trim().min(1).max(64),
  ecg_file_url: z.string().max(500).optional(),
})

/**
 * A link to the ECG that works for a short time only: health data, served to members who see the
 * rescue and to nobody who merely holds an old URL.
 */
export const rescueFileAnswer = z.object({
  url: z.string(),
  file_name: z.string(),
  /** ISO 8601: the link stops working then. */
  expires_at: z.string(),
})

/** Every call of the emergency page's rescue tab. */
export const rescueApi = {
  list: get('/api/v1/aid-event/rescue-event/', {
    summary: 'Rescues of the scope, newest first (filters device_sn, address_code, start_time, end_time)',
    query: rescueListQuery,
    response: paged(rescueRowSchema),
  }),
  fileDownload: get('/api/v1/aid-event/rescue-event/file-download', {
    summary:
      'A short-lived link to a rescue’s ECG for a member who sees the rescue (文件未上传！ when the device sent none)',
    query: rescueFileQuery,
    response: rescueFileAnswer,
  }),
}
