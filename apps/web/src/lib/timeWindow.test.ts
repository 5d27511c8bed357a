import { CALL_TIME_PRESETS } from '@aed/contracts/call'
import dayjs from 'dayjs'
import { describe, expect, it } from 'vitest'
import { timeWindow } from './timeWindow'

const now = dayjs('2026-03-10T12:00:00Z')

describe('timeWindow', () => {
  it('turns a preset into the span back from now', () => {
    expect(timeWindow('1', CALL_TIME_PRESETS, now)).toEqual({
      start_time: '2026-03-10T11:50:00.000Z',
      end_time: '2026-03-10T12:00:00.000Z',
    })
    expect(timeWindow('4', CALL_TIME_PRESETS, now).start_time).toBe('2026-02-08T12:00:00.000Z')
  })

  it('turns a custom pair into whole days of the agencies’ time zone', () => {
    expect(timeWindow(['2026.03.01', '2026.03.02'], CALL_TIME_PRESETS, now)).toEqual({
      start_time: '2026-03-01T00:00:00.000+08:00',
      end_time: '2026-03-02T23:59:59.999+08:00',
    })
  })

  it('leaves the span open for no value or an unknown one', () => {
    expect(timeWindow(undefined, CALL_TIME_PRESETS, now)).toEqual({})
    expect(timeWindow('9', CALL_TIME_PRESETS, now)).toEqual({})
    expect(timeWindow(['2026.03.01'], CALL_TIME_PRESETS, now)).toEqual({})
  })
})
