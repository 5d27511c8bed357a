import type { Membership, UserInfo } from '@aed/contracts'

export const membership = (id: number, agency_name: string, current = false): Membership => ({
  id,
  agency_id: id * 10,
  agency_name,
  agency_type: 2,
  role_type: 1,
  current,
})

export function userInfo(patch: Partial<UserInfo> = {}): UserInfo {
  return {
    id: 1,
    account_id: 1,
    phone: '13800000099',
    agency_id: 10,
    agency_name: '西湖急救中心',
    agency_type: 2,
    role_type: 1,
    token: 'token-1',
    bind_wx: false,
    user_name: '调度员',
    role: '管理员',
    avatar: null,
    agency_member_role: 1,
    permissions: {},
    permission_list: ['device'],
    password_expired: false,
    agency_list: [membership(1, '西湖急救中心', true)],
    ...patch,
  }
}
