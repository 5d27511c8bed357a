import dayjs from 'dayjs'
import { describe, expect, it } from 'vitest'
import { callQuery } from './callQuery'

describe('callQuery', () => {
  it('sends the filters, a custom range as whole days of the agencies’ time zone', () => {
    expect(
      callQuery({ phone: '139', status: '1', outcome: 'aed_used', call_time: ['2026.03.01', '2026.03.02'] }),
    ).toEqual({
      phone: '139',
      status: '1',
      outcome: 'aed_used',
      address_code: undefined,
      start_time: '2026-03-01T00:00:00.000+08:00',
      end_time: '2026-03-02T23:59:59.999+08:00',
    })
  })

  it('sends 7天 as the week up to now', () => {
    const q = callQuery({ call_time: '3' }, dayjs('2026-03-10T12:00:00Z'))
    expect(q.start_time).toBe('2026-03-03T12:00:00.000Z')
    expect(q.end_time).toBe('2026-03-10T12:00:00.000Z')
  })
})
