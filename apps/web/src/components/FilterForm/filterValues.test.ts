import dayjs from 'dayjs'
import { describe, expect, it } from 'vitest'
import { emptyFormValues, toFilters, toFormValues } from './filterValues'
import type { FilterField } from './types'

const fields: FilterField[] = [
  { name: 'name', type: 'input' },
  { name: 'role', type: 'select', options: [{ label: 'a', value: 0 }] },
  { name: 'tags', type: 'select_multi' },
  { name: 'day', type: 'date' },
  { name: 'span', type: 'date_range' },
  { name: 'time', type: 'custom_time_select', initialValue: '4' },
]

describe('filter values', () => {
  it('drop empty values, keep zero, format dates, keep pairs', () => {
    expect(
      toFilters(fields, {
        name: '',
        role: 0,
        tags: [],
        day: dayjs('2026-03-04'),
        span: [dayjs('2026-01-01'), null],
        time: ['2026.01.01', '2026.01.02'],
      }),
    ).toEqual({ role: '0', day: '2026-03-04', span: ['2026-01-01', ''], time: ['2026.01.01', '2026.01.02'] })
  })

  it('reset leaves ranges as a pair of empty values', () => {
    expect(emptyFormValues(fields)).toEqual({
      name: undefined,
      role: undefined,
      tags: [],
      day: undefined,
      span: [null, null],
      time: undefined,
    })
  })

  it('read URL strings back as option values, dates and the initial value', () => {
    const v = toFormValues(fields, { role: '0', tags: 'x', day: '2026-03-04' })
    expect(v.role).toBe(0)
    expect(v.tags).toEqual(['x'])
    expect(dayjs.isDayjs(v.day) && v.day.format('YYYY-MM-DD')).toBe('2026-03-04')
    expect(v.time).toBe('4')
  })
})
