import { describe, expect, it } from 'vitest'
import { bandOf, DATA_DICT, localDataDict } from './constants.ts'

describe('data dictionary', () => {
  it('puts battery levels in the spec’s bands: ≤5 exhausted, over 5 to 9 low, over 9 normal', () => {
    const band = (v: number) => bandOf(DATA_DICT.battery_band, v)
    expect([0, 5, 5.5, 9, 9.1, 100].map(band)).toEqual([0, 0, 1, 1, 2, 2])
  })

  it('puts months left in the expiry bands of pads and batteries, and of the host', () => {
    expect([-1, 0, 2, 3, 6, 7].map((m) => bandOf(DATA_DICT.expiry_band, m))).toEqual([0, 0, 1, 1, 2, 3])
    expect([0, 5, 6, 12, 13].map((m) => bandOf(DATA_DICT.host_expiry_band, m))).toEqual([0, 1, 1, 2, 3])
  })

  it('has a label in both languages for every entry', () => {
    const zh = localDataDict('zh-CN')
    const en = localDataDict('en-US')
    for (const [k, entries] of Object.entries(zh)) {
      entries.forEach((e, i) => {
        expect(e.label, k).toMatch(/\p{Script=Han}/u)
        expect(en[k as keyof typeof en][i].label, k).toMatch(/^[\x20-\x7e]+$/)
      })
    }
  })
})
