import dayjs from 'dayjs'
import { describe, expect, it } from 'vitest'
import { logQuery } from './logQuery'

const today = dayjs('2026-06-30')

describe('operation log query', () => {
  it('defaults to the last 180 days', () => {
    expect(logQuery({}, today)).toEqual({
      operator: undefined,
      content: undefined,
      start_time: '2026-01-01',
      end_time: '2026-06-30',
    })
  })

  it('turns presets and custom dotted dates into YYYY-MM-DD', () => {
    expect(logQuery({ time: '1', operator: '王' }, today)).toMatchObject({
      operator: '王',
      start_time: '2026-06-23',
      end_time: '2026-06-30',
    })
    expect(logQuery({ time: ['2026.02.01', '2026.03.01'] }, today)).toMatchObject({
      start_time: '2026-02-01',
      end_time: '2026-03-01',
    })
  })
})
