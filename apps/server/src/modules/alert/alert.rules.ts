import { dictLabel } from '@aed/contracts/constants'
import { faultDescription, WARNING_CODES } from '@aed/contracts/device-protocol'
import type { DeviceEventKind } from '../../db/schema.ts'
import { clockFormat } from '../../lib/time.ts'

// The pure rules of alert SMS: which days and moments an SMS may go out, and its words.

/** The platform's signature at the head of every SMS. */
export const SIGNATURE = '【AED云】'
/** Lines a digest lists; the rest are counted. */
export const DIGEST_MAX_LINES = 10
/**
 * Abnormal-status lines inside the window wait this long, so conditions opened together (a
 * self-test with several faults, an offline sweep of an installation) reach one person as one digest.
 */
export const STATUS_GATHER_MS = 60_000
/** sms_alerts.line is varchar(300). */
const LINE_MAX = 300
/** Characters of the address kept in a line: an SMS is short. */
const PLACE_MAX = 30

/** 1 every day, 2 Monday to Friday, 0 never (settings' aid_sms and exec_status_sms). */
export type SmsSchedule = 0 | 1 | 2

type Local = { date: string; weekday: number }

function partsIn(ms: number, zone: string) {
  const p = Object.fromEntries(
    clockFormat(zone)
      .formatToParts(ms)
      .map((x) => [x.type, x.value]),
  )
  return { y: +p.year, m: +p.month, d: +p.day, h: +p.hour, mi: +p.minute, s: +p.second }
}

/** The local date 'YYYY-MM-DD' and weekday (0 Sunday ... 6 Saturday) of a moment in a zone. */
export function localDay(at: Date, zone: string): Local {
  const p = partsIn(at.getTime(), zone)
  return dayOf(Date.UTC(p.y, p.m - 1, p.d))
}

function dayOf(utcMidnight: number): Local {
  return {
    date: new Date(utcMidnight).toISOString().slice(0, 10),
    weekday: new Date(utcMidnight).getUTCDay(),
  }
}

/** The moment a local date and 'HH:mm' name in a zone. */
export function zonedMoment(date: string, hhmm: string, zone: string): Date {
  const [y, m, d] = date.split('-').map(Number)
  const [h, mi] = hhmm.split(':').map(Number)
  const wall = Date.UTC(y, m - 1, d, h, mi)
  const offset = (ms: number) => {
    const p = partsIn(ms, zone)
    return Date.UTC(p.y, p.m - 1, p.d, p.h, p.mi, p.s) - Math.floor(ms / 1000) * 1000
  }
  // Twice: the offset at the guess may differ from the offset at the answer (a DST change).
  const first = wall - offset(wall)
  return new Date(wall - offset(first))
}

/** Whether a schedule lets SMS go out on a weekday. */
export function allowedOn(schedule: SmsSchedule, weekday: number): boolean {
  if (schedule === 1) return true
  if (schedule === 2) return weekday >= 1 && weekday <= 5
  return false
}

/**
 * When an abnormal-status SMS planned at `now` goes out: inside the window on an allowed day,
 * after the gathering pause; before the window, at its start; after it (or on a day the
 * schedule skips), at the start of the next allowed day's window. Held, never dropped; null
 * only for the schedule 'never'. The window is [start, end).
 */
export function statusSendAt(
  now: Date,
  schedule: SmsSchedule,
  window: readonly [string, string],
  zone: string,
  gatherMs = STATUS_GATHER_MS,
): Date | null {
  if (schedule === 0) return null
  const today = Date.parse(`${localDay(now, zone).date}T00:00:00Z`)
  for (let i = 0; i < 8; i++) {
    const day = dayOf(today + i * 86_400_000)
    if (!allowedOn(schedule, day.weekday)) continue
    const start = zonedMoment(day.date, window[0], zone)
    const end = zonedMoment(day.date, window[1], zone)
    if (now >= end) continue
    if (now < start) return start
    const gathered = new Date(now.getTime() + gatherMs)
    return gathered < end ? gathered : now
  }
  return null
}

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s)
const where = (location: string | null) => (location ? `（${clip(location, PLACE_MAX)}）` : '')

const STATUS_OF_KIND: Record<DeviceEventKind, number> = { warning: 1, fault: 2, offset: 3, offline: 4 }

/** What a condition is called in an SMS: '故障：电池故障', '预警：电量低', '离线'. */
export function conditionText(kind: DeviceEventKind, code: string): string {
  const name = dictLabel('device_status', STATUS_OF_KIND[kind] ?? null)
  if (kind === 'fault') return `${name}：${faultDescription(code)}`
  if (kind === 'warning') {
    const label = (WARNING_CODES as Record<string, readonly [string, string]>)[code]
    return `${name}：${label ? label[0] : code}`
  }
  return name
}

/** The line of an abnormal status: '设备A640000001（杭州市西湖区…）故障：电池故障'. */
export function statusLine(o: {
  deviceSn: string
  location: string | null
  kind: DeviceEventKind
  code: string
}) {
  return clip(`设备${o.deviceSn}${where(o.location)}${conditionText(o.kind, o.code)}`, LINE_MAX)
}

/** The line of a rescue's start (the SMS kind 'aid' is a stored value and stays). */
/** The first-aid SMS line of a call: where, and the caller's number to ring back. */
export function callLine(o: { location: string; phone: string }) {
  return clip(`${o.location}有人呼救（${o.phone}），请立即关注并组织救援`, LINE_MAX)
}

/** The first-aid SMS line of a rescue. */
export function rescueLine(o: { deviceSn: string; location: string | null }) {
  return clip(`设备${o.deviceSn}${where(o.location)}正在急救使用，请立即关注并前往支援`, LINE_MAX)
}

/** The line of an escalation step of an unconfirmed alarm (msg_type 2 first aid, 4 cabinet door). */
export function escalationLine(o: {
  msgType: number
  deviceSn: string | null
  cabinetSn: string | null
  location: string | null
  minutes: number
}) {
  const what =
    o.msgType === 4
      ? `救护箱开门告警未确认：救护箱${o.cabinetSn ?? ''}`
      : o.msgType === 1
        ? '呼救告警未确认'
        : `急救告警未确认：设备${o.deviceSn ?? ''}`
  return clip(`${what}${where(o.location)}已${o.minutes}分钟无人确认，请立即处理`, LINE_MAX)
}

/** The text of one SMS carrying these lines: the line itself, or a numbered digest. */
export function smsText(lines: readonly string[]): string {
  if (lines.length === 1) return `${SIGNATURE}${lines[0]}`
  const listed = lines.slice(0, DIGEST_MAX_LINES).map((l, i) => `${i + 1}. ${l}`)
  const more = lines.length - listed.length
  return `${SIGNATURE}${lines.length}条设备告警：${listed.join('；')}${more > 0 ? `；另有${more}条，请登录AED云查看` : ''}`
}
