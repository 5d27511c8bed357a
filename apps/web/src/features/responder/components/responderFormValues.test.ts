import dayjs from 'dayjs'
import { describe, expect, it } from 'vitest'
import { responderDetail } from '../../../test/responderFixtures'
import { fromResponder, submitValues, toResponderForm } from './responderFormValues'

describe('responder form values', () => {
  it('round-trips a stored professional into the nested save payload', () => {
    const form = toResponderForm(fromResponder(responderDetail()))
    expect(form).toEqual({
      account_id: 31,
      account: {
        phone: '13912345678',
        name: '张三',
        birth: '1990-05-06',
        gender: 1,
        lat: 30.27,
        lon: 120.15,
        location: '浙江省杭州市西湖区文三路20号',
        location_desc: '3号楼201',
        address_code: '330106',
        email: 'zhang@aed.cn',
      },
      aid_aptitude: 1,
      certificate_num: 'HZ-2024-001',
      certificate_expire: '2027-01-01',
      certificate_img: '/files/cert-1.png',
      agency_id: 4,
      status: 1,
    })
  })

  it('sends a non-professional’s certificate fields empty, and blanks as null', () => {
    const values = {
      ...fromResponder(responderDetail()),
      aid_aptitude: 0 as const,
      email: ' ',
      location_desc: '',
    }
    const form = toResponderForm(values)
    expect(form).toMatchObject({ certificate_num: null, certificate_expire: null, certificate_img: null })
    expect(form.account).toMatchObject({ email: null, location_desc: null })
  })

  it('gives the submit checks the birth as a date', () => {
    expect(submitValues({ phone: '1', birth: dayjs('2000-02-03') }).birth).toBe('2000-02-03')
    expect(submitValues({ phone: '1' }).birth).toBeNull()
  })
})
