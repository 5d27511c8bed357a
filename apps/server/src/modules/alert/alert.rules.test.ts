import { describe, expect, it } from 'vitest'
import {
  allowedOn,
  conditionText,
  escalationLine,
  localDay,
  rescueLine,
  STATUS_GATHER_MS,
  smsText,
  statusLine,
  statusSendAt,
  zonedMoment,
} from './alert.rules.ts'

const SH = 'Asia/Shanghai'
const window = ['08:00', '20:00'] as const
// Shanghai is UTC+8: 2026-11-27 is a Friday, 11-28 a Saturday, 11-30 a Monday.
const at = (local: string) => new Date(`${local}+08:00`)

describe('alert SMS schedule and window', () => {
  it('reads local days and moments in the organisations’ zone', () => {
    expect(localDay(new Date('2026-11-27T16:30:00Z'), SH)).toEqual({ date: '2026-11-28', weekday: 6 })
    expect(zonedMoment('2026-11-30', '08:00', SH).toISOString()).toBe('2026-11-30T00:00:00.000Z')
    expect(zonedMoment('2026-07-01', '09:30', 'Europe/Berlin').toISOString()).toBe('2026-07-01T07:30:00.000Z')
  })

  it('every day, Monday to Friday, or never', () => {
    expect([0, 1, 2, 3, 4, 5, 6].map((d) => allowedOn(1, d))).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      true,
    ])
    expect([0, 1, 2, 3, 4, 5, 6].map((d) => allowedOn(2, d))).toEqual([
      false,
      true,
      true,
      true,
      true,
      true,
      false,
    ])
    expect(allowedOn(0, 3)).toBe(false)
  })

  it('inside the window: after the gathering pause; never: none', () => {
    const now = at('2026-11-27T10:00:00')
    expect(statusSendAt(now, 2, window, SH)?.getTime()).toBe(now.getTime() + STATUS_GATHER_MS)
    expect(statusSendAt(now, 0, window, SH)).toBeNull()
    // A pause that would cross the window's end goes at once.
    const late = at('2026-11-27T19:59:30')
    expect(statusSendAt(late, 1, window, SH)).toEqual(late)
  })

  it('before the window: at its start; after it: the next allowed day’s start', () => {
    expect(statusSendAt(at('2026-11-27T06:10:00'), 2, window, SH)).toEqual(at('2026-11-27T08:00:00'))
    expect(statusSendAt(at('2026-11-26T22:00:00'), 2, window, SH)).toEqual(at('2026-11-27T08:00:00'))
    // Friday night: Monday to Friday holds it over the weekend, every day to Saturday morning.
    expect(statusSendAt(at('2026-11-27T22:00:00'), 2, window, SH)).toEqual(at('2026-11-30T08:00:00'))
    expect(statusSendAt(at('2026-11-27T22:00:00'), 1, window, SH)).toEqual(at('2026-11-28T08:00:00'))
    // On a Saturday afternoon, within the hours but not the days.
    expect(statusSendAt(at('2026-11-28T10:00:00'), 2, window, SH)).toEqual(at('2026-11-30T08:00:00'))
    // The window's end is not inside it.
    expect(statusSendAt(at('2026-11-27T20:00:00'), 1, window, SH)).toEqual(at('2026-11-28T08:00:00'))
  })
})

describe('alert SMS words', () => {
  it('names conditions with the contracts’ labels', () => {
    expect(conditionText('fault', 'E02')).toBe('故障：电池故障')
    expect(conditionText('warning', 'battery_low')).toBe('预警：电量低')
    expect(conditionText('offline', '')).toBe('离线')
    expect(conditionText('offset', '')).toBe('位置偏移')
  })

  it('writes lines with a short place, and digests several', () => {
    const line = statusLine({
      deviceSn: 'A640000001',
      location: '浙江省杭州市西湖区文三路100号华星时代广场A座一楼大厅东侧服务台旁',
      kind: 'fault',
      code: 'E02',
    })
    expect(line).toBe(
      '设备A640000001（浙江省杭州市西湖区文三路100号华星时代广场A座一楼大厅东…）故障：电池故障',
    )
    expect(rescueLine({ deviceSn: 'A640000002', location: null })).toBe(
      '设备A640000002正在急救使用，请立即关注并前往支援',
    )
    expect(
      escalationLine({ msgType: 4, deviceSn: null, cabinetSn: 'C1', location: '大厅', minutes: 5 }),
    ).toBe('救护箱开门告警未确认：救护箱C1（大厅）已5分钟无人确认，请立即处理')
    expect(smsText(['a'])).toBe('【AED云】a')
    expect(smsText(['a', 'b', 'c'])).toBe('【AED云】3条设备告警：1. a；2. b；3. c')
    const many = smsText(Array.from({ length: 12 }, (_, i) => `l${i + 1}`))
    expect(many).toMatch(/^【AED云】12条设备告警：1\. l1；.*10\. l10；另有2条，请登录AED云查看$/)
  })
})
