import { type SQL, sql } from 'drizzle-orm'

// An installation's opening hours as SQL, for every feature that asks which AEDs are usable now:
// the open API's nearby AEDs and dispatch's choice of AEDs.

/** The time in China an opening-hours check reads: weekday 1 (Monday) to 7, and 'HH:mm'. */
export type LocalTime = { day: number; hhmm: string }

/** China time (+08:00, no daylight saving): the opening hours' clock. */
const CHINA_OFFSET_MS = 8 * 3_600_000

/** The weekday (1 Monday ... 7 Sunday) and 'HH:mm' in China at an instant. */
export function chinaTime(now: Date): LocalTime {
  const local = new Date(now.getTime() + CHINA_OFFSET_MS)
  const day = local.getUTCDay() || 7
  const hhmm = `${String(local.getUTCHours()).padStart(2, '0')}:${String(local.getUTCMinutes()).padStart(2, '0')}`
  return { day, hhmm }
}

/**
 * The installation `i` is open at `at` by its opening hours: always (2), never (0), or (1) on a
 * listed weekday within one of its [start, end] periods, both ends included; a period whose start
 * is after its end runs past midnight (22:00-02:00 holds at 23:00 and at 01:00 of a listed day).
 */
export function openAt(at: LocalTime): SQL {
  return sql`(i.open_state = 2 OR (i.open_state = 1 AND ${at.day}::smallint = ANY (i.open_day) AND EXISTS (
    SELECT 1 FROM jsonb_array_elements(i.open_time_period) p
    WHERE CASE WHEN p->>0 <= p->>1 THEN ${at.hhmm} BETWEEN p->>0 AND p->>1
               ELSE ${at.hhmm} >= p->>0 OR ${at.hhmm} <= p->>1 END)))`
}
