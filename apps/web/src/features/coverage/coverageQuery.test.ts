import dayjs from 'dayjs'
import { describe, expect, it } from 'vitest'
import { coverageQuery } from './coverageQuery'

const today = dayjs('2026-11-26')

describe('coverage query', () => {
  it('defaults to the last 30 days of the whole scope', () => {
    expect(coverageQuery({}, today)).toEqual({
      start_date: '2026-10-27',
      end_date: '2026-11-26',
      address_code: undefined,
    })
  })

  it('turns the presets and a custom range of dotted dates into dates, with the region', () => {
    expect(coverageQuery({ period: '1', address_code: '330100' }, today)).toEqual({
      start_date: '2026-11-19',
      end_date: '2026-11-26',
      address_code: '330100',
    })
    expect(coverageQuery({ period: '3' }, today)).toMatchObject({ start_date: '2026-08-28' })
    expect(coverageQuery({ period: ['2026.01.01', '2026.03.31'] }, today)).toMatchObject({
      start_date: '2026-01-01',
      end_date: '2026-03-31',
    })
  })
})
