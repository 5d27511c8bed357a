import dayjs from 'dayjs'
import { describe, expect, it } from 'vitest'
import { device } from '../../test/deviceFixtures'
import { deviceQuery } from './api/deviceQuery'
import { fromDevice, toDeviceBody, toDeviceUpdate } from './components/deviceFormValues'
import { beforeToday, deviceProblem } from './deviceRules'

describe('deviceProblem', () => {
  const stored = device()
  const values = fromDevice(stored)

  it('passes a stored device as it is', () => {
    expect(deviceProblem(values, stored)).toBeNull()
  })

  it('asks for both photos, the close-up first', () => {
    expect(deviceProblem({ ...values, chest_shot_img: null, long_shot_img: null }, stored)).toBe(
      'device.problem.chestImg',
    )
    expect(deviceProblem({ ...values, long_shot_img: null }, stored)).toBe('device.problem.longImg')
  })

  it('wants a move to change the address or the exact location, and a replacement another serial', () => {
    expect(deviceProblem({ ...values, update_type: 2 }, stored)).toBe('device.problem.moveUnchanged')
    expect(deviceProblem({ ...values, update_type: 2, location_desc: '南入口' }, stored)).toBeNull()
    expect(deviceProblem({ ...values, update_type: 3, new_device_sn: ' M672412211 ' }, stored)).toBe(
      'device.problem.snUnchanged',
    )
  })

  it('refuses opening periods that end before they start', () => {
    const period = [dayjs('2026-01-01T18:00'), dayjs('2026-01-01T08:00')] as [dayjs.Dayjs, dayjs.Dayjs]
    expect(
      deviceProblem({ ...values, open_state: 1, open_day: [1], open_time_period: [period] }, stored),
    ).toBe('device.problem.periodOrder')
  })

  it('takes no date before today', () => {
    const today = dayjs('2026-11-22')
    expect(beforeToday(dayjs('2026-11-21'), today)).toBe(true)
    expect(beforeToday(dayjs('2026-11-22T23:00'), today)).toBe(false)
  })
})

describe('the device body', () => {
  it('sends days and periods only when semi-open, and the switches only from super administrators', () => {
    const v = {
      ...fromDevice(device()),
      open_state: 1 as const,
      open_day: [3, 1],
      open_time_period: [
        [dayjs('2026-01-01T08:00'), dayjs('2026-01-01T18:30')] as [dayjs.Dayjs, dayjs.Dayjs],
        null,
      ],
      disable_abnormal_display: true,
    }
    const body = toDeviceBody(v, device(), false)
    expect(body).toMatchObject({
      open_day: [1, 3],
      open_time_period: [['08:00', '18:30']],
      address_code: '440106',
    })
    expect(body).not.toHaveProperty('disable_abnormal_display')
    expect(toDeviceBody(v, device(), true)).toMatchObject({
      disable_abnormal_display: 1,
      disable_abnormal_sms_notify: 0,
    })
    expect(toDeviceBody({ ...v, open_state: 2 }, device(), true)).toMatchObject({
      open_day: [],
      open_time_period: [],
    })
  })

  it('keeps the stored serial on a change and adds the new one only when replacing', () => {
    const v = { ...fromDevice(device()), device_sn: 'X', new_device_sn: 'M642603738' }
    expect(toDeviceUpdate({ ...v, update_type: 1 }, device(), false)).not.toHaveProperty('new_device_sn')
    expect(toDeviceUpdate({ ...v, update_type: 3 }, device(), false)).toMatchObject({
      device_sn: 'M672412211',
      update_type: 3,
      new_device_sn: 'M642603738',
    })
  })
})

describe('deviceQuery', () => {
  it('turns the install-time filter into install_days or a date range', () => {
    expect(deviceQuery({ install_time: '3', status: '0' })).toMatchObject({ install_days: 90, status: '0' })
    expect(deviceQuery({ install_time: ['2026.01.01', '2026.02.01'] })).toMatchObject({
      start_time: '2026-01-01',
      end_time: '2026-02-01',
    })
    expect(deviceQuery({ device_sn: '  ' })).toEqual(
      expect.not.objectContaining({ device_sn: expect.anything() }),
    )
  })
})
