import dayjs from 'dayjs'
import { describe, expect, it } from 'vitest'
import { rescueQuery } from './rescueQuery'

describe('rescueQuery', () => {
  it('sends the serial, the region and the time preset as start_time and end_time', () => {
    const now = dayjs('2026-03-10T12:00:00Z')
    expect(rescueQuery({ device_sn: ' A64 ', address_code: '330106', event_time: '2' }, now)).toEqual({
      device_sn: 'A64',
      address_code: '330106',
      start_time: '2026-03-09T12:00:00.000Z',
      end_time: '2026-03-10T12:00:00.000Z',
    })
    expect(rescueQuery({}, now)).toEqual({ device_sn: undefined, address_code: undefined })
  })
})
