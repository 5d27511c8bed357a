import type { Agency, AgencyNode } from '@aed/contracts/agency'
import type { Member } from '@aed/contracts/member'

export const node = (
  id: number,
  name: string,
  agency_type: number,
  level: number,
  kids: AgencyNode[] = [],
): AgencyNode => ({
  id,
  name,
  index_link: `/${id}/`,
  agency_type,
  level,
  disabled: false,
  kids,
})

export const tree: AgencyNode[] = [
  node(1, 'AED云平台运营中心', 0, 1, [
    node(2, '华东区域总代理', 1, 2, [node(4, '杭州市西湖区急救中心', 2, 3)]),
  ]),
]

export function agency(patch: Partial<Agency> = {}): Agency {
  return {
    id: 4,
    name: '杭州市西湖区急救中心',
    agency_type: 2,
    parent_id: 2,
    parent_name: '华东区域总代理',
    level: 3,
    phone: '057****1234',
    contact_name: '赵敏',
    location: '浙江省杭州市西湖区文三路20号',
    address_code: '330106',
    address_name: '浙江省杭州市西湖区',
    index_link: '/1/2/4/',
    disabled: false,
    effective_disabled: false,
    create_time: '2026-01-02T03:04:05Z',
    can: { edit: true, disable: true },
    ...patch,
  }
}

export function member(patch: Partial<Member> = {}): Member {
  return {
    id: 5,
    account: {
      id: 5,
      name: '王五',
      phone: '139****5678',
      email: 'w***@aed.cn',
      nationality: 'CN',
      location: '文三路20号',
      address_code: '330106',
      lat: 30.27,
      lon: 120.15,
      birth: null,
      gender: 1,
    },
    agency_id: 4,
    agency_name: '杭州市西湖区急救中心',
    role_type: 2,
    permissions: { device: 'READ_ONLY' },
    use_expire: null,
    creator: null,
    create_time: '2026-01-02T03:04:05Z',
    updator: null,
    update_time: '2026-01-02T03:04:05Z',
    can: { edit: true, delete: true },
    ...patch,
  }
}

export const orgMenu = [
  {
    name: 'organizationalManagement',
    path: '/organizationalManagement',
    title: '机构管理',
    children: [
      {
        name: 'organizationalManagement-organizational',
        path: '/organizationalManagement/organizational',
        title: '机构列表',
      },
    ],
  },
  {
    name: 'users',
    path: '/users',
    title: '用户管理',
    children: [{ name: 'users-permission', path: '/users/permission', title: '用户列表' }],
  },
]
