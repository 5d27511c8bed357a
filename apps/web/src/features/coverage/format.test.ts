import { describe, expect, it } from 'vitest'
import { minutesSeconds, percent } from './format'

describe('coverage figures', () => {
  it('shows shares as percentages with one decimal, and none as a dash', () => {
    expect([percent(1 / 3), percent(1), percent(0), percent(null)]).toEqual(['33.3%', '100.0%', '0.0%', '–'])
  })

  it('shows seconds as minutes:seconds', () => {
    expect([minutesSeconds(90), minutesSeconds(5), minutesSeconds(3725), minutesSeconds(null)]).toEqual([
      '1:30',
      '0:05',
      '62:05',
      '–',
    ])
  })
})
