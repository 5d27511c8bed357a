import type { Member } from '@aed/contracts/member'
import dayjs from 'dayjs'
import { describe, expect, it } from 'vitest'
import { type MemberFormValues, toMemberForm } from './memberFormValues'

const values: MemberFormValues = {
  phone: '138 0000 1234',
  name: ' 王 ',
  email: 'w@aed.cn',
  nationality: 'CN',
  gender: null,
  birth: null,
  password: 'Aed12345',
  agency_id: 4,
  role_type: 2,
  location: '文三路20号',
  region: ['330000', '330100', '330106'],
  lat: 30.2,
  lon: 120.1,
  permissions: { device: 'READ_ONLY', member: 'READ_ONLY', aid_man: undefined },
}

describe('user form body', () => {
  it('strips the phone, leaves out an empty birth, sends unset rows as null and no management for general users', () => {
    const body = toMemberForm(values, undefined)
    expect(body.account).toMatchObject({
      phone: '13800001234',
      name: '王',
      address_code: '330106',
      password: 'Aed12345',
    })
    expect(body.account).not.toHaveProperty('birth')
    expect(body.permissions).toEqual({ device: 'READ_ONLY', member: null, aid_man: null, agency: null })
    expect(body.use_expire).toBeNull()
  })

  it('keeps stored areas the dialog does not show and never sends a password when editing', () => {
    const stored = {
      permissions: { analysis_board: 'READ_ONLY', device: 'ALL' },
      use_expire: '2026-12-01T00:00:00Z',
    } as unknown as Member
    const body = toMemberForm({ ...values, role_type: 1, birth: dayjs('1990-02-03') }, stored)
    expect(body.permissions).toEqual({
      analysis_board: 'READ_ONLY',
      device: 'READ_ONLY',
      member: 'READ_ONLY',
      aid_man: null,
      agency: null,
    })
    expect(body.account).not.toHaveProperty('password')
    expect(body.account.birth).toBe('1990-02-03')
    expect(body.use_expire).toBe('2026-12-01T00:00:00Z')
  })
})
