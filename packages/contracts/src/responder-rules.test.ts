import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { responderForm } from './responder.ts'
import {
  ageOn,
  certificateStatus,
  daysBetween,
  dispatchState,
  responderSubmitCheck,
} from './responder-rules.ts'

const full = {
  phone: '13912345678',
  name: '张三',
  birth: '1990-05-01',
  gender: 1,
  lat: 30.25,
  lon: 120.15,
  aid_aptitude: 1,
  certificate_img: '/files/a.png',
}

describe('responder rules', () => {
  it('counts age in whole years, the birthday itself included', () => {
    expect(ageOn('1990-05-01', '2026-04-30')).toBe(35)
    expect(ageOn('1990-05-01', '2026-05-01')).toBe(36)
    expect(ageOn('2000-02-29', '2026-02-28')).toBe(25)
    expect(ageOn(null, '2026-01-01')).toBeNull()
  })

  it('keeps a certificate valid through its expiry day; non-professionals have none', () => {
    expect(certificateStatus(1, '2026-11-26', '2026-11-26')).toBe(1)
    expect(certificateStatus(1, '2026-11-25', '2026-11-26')).toBe(0)
    expect(certificateStatus(0, '2020-01-01', '2026-11-26')).toBeNull()
    expect(daysBetween('2026-11-26', '2026-12-26')).toBe(30)
    expect(daysBetween('2026-11-26', '2026-11-20')).toBe(-6)
  })

  it('puts a pause before an expired certificate', () => {
    const expired = { aid_aptitude: 1, certificate_expire: '2020-01-01' }
    expect(dispatchState({ ...expired, paused: true }, '2026-11-26')).toBe('paused')
    expect(dispatchState({ ...expired, paused: false }, '2026-11-26')).toBe('certificate_expired')
    expect(dispatchState({ ...expired, aid_aptitude: 0, paused: false }, '2026-11-26')).toBe('ready')
  })

  it('runs the nine submit checks in the spec’s order', () => {
    expect(responderSubmitCheck(full, false)).toBe('NO_PERMISSION')
    expect(responderSubmitCheck({ ...full, phone: ' ' }, true)).toBe('CONTACT_PHONE_REQUIRED')
    expect(responderSubmitCheck({ ...full, phone: '1391234' }, true)).toBe('CONTACT_PHONE_WRONG')
    expect(responderSubmitCheck({ ...full, name: '' }, true)).toBe('RESPONDER_NAME_REQUIRED')
    expect(responderSubmitCheck({ ...full, birth: null }, true)).toBe('BIRTH_REQUIRED')
    expect(responderSubmitCheck({ ...full, gender: null }, true)).toBe('GENDER_REQUIRED')
    expect(responderSubmitCheck({ ...full, lat: null }, true)).toBe('ADDRESS_PICK')
    expect(responderSubmitCheck({ ...full, certificate_img: null }, true)).toBe('CERT_IMG_REQUIRED')
    expect(responderSubmitCheck({ ...full, aid_aptitude: 0, certificate_img: null }, true)).toBeNull()
    expect(responderSubmitCheck({ ...full, lon: null }, true)).toBe('RESPONDER_POINT_REQUIRED')
    expect(responderSubmitCheck(full, true)).toBeNull()
  })

  it('has the server refuse first what the console checks first', () => {
    // For any one missing field, the schema's first issue is the console's message.
    const body = {
      account: {
        phone: full.phone,
        name: full.name,
        birth: full.birth,
        gender: 1,
        lat: 30.25,
        lon: 120.15,
        location: '杭州',
      },
      aid_aptitude: 1,
      certificate_num: 'C1',
      certificate_expire: '2027-01-01',
      certificate_img: '/files/a.png',
      agency_id: 1,
      status: 0,
    }
    const cases: [string, string][] = [
      ['phone', 'CONTACT_PHONE_REQUIRED'],
      ['name', 'RESPONDER_NAME_REQUIRED'],
      ['birth', 'BIRTH_REQUIRED'],
      ['gender', 'GENDER_REQUIRED'],
      ['lat', 'ADDRESS_PICK'],
      ['lon', 'RESPONDER_POINT_REQUIRED'],
    ]
    for (const [field, key] of cases) {
      const account = { ...body.account } as Record<string, unknown>
      delete account[field]
      const r = responderForm.safeParse({ ...body, account })
      expect(r.success ? null : r.error.issues[0].message).toBe(key)
    }
    const noImg = responderForm.safeParse({ ...body, certificate_img: '' })
    expect(noImg.success ? null : noImg.error.issues[0].message).toBe('CERT_IMG_REQUIRED')
    const lay = responderForm.safeParse({
      ...body,
      aid_aptitude: 0,
      certificate_img: null,
      certificate_num: '',
    })
    expect(lay.success).toBe(true)
    const txt = responderForm.safeParse({ ...body, certificate_img: '/files/a.txt' })
    expect(txt.success ? null : txt.error.issues[0].message).toBe('CERT_IMG_NOT_IMAGE')
  })

  it('accepts the pattern’s phones and refuses others', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{11}$/), (phone) => {
        const r = responderForm.safeParse({
          account: { phone, name: 'a', birth: '1990-01-01', gender: 2, lat: 1, lon: 1, location: 'x' },
          aid_aptitude: 0,
          agency_id: 1,
          status: 1,
        })
        expect(r.success).toBe(/^1[34578]\d{9}$/.test(phone))
      }),
    )
  })
})
