import type { Responder, ResponderChange } from '@aed/contracts/responder'

/** A professional responder as the list sends it (phone and email masked); `patch` changes any field. */
export function responder(patch: Partial<Responder> = {}): Responder {
  const base: Responder = {
    id: 1,
    name: '张三',
    gender: 1,
    birth: '1990-05-06',
    age: 35,
    phone: '139****5678',
    email: 'z***@aed.cn',
    location: '浙江省杭州市西湖区文三路20号',
    location_desc: '3号楼201',
    address_code: '330106',
    lon: 120.15,
    lat: 30.27,
    aid_aptitude: 1,
    certificate_num: 'HZ-2024-001',
    certificate_expire: '2027-01-01',
    certificate_img: '/files/cert-1.png',
    certificate_status: 1,
    certificate_days_left: 300,
    agency_id: 4,
    agency_name: '杭州市西湖区急救中心',
    status: 1,
    paused: false,
    pause_reason: null,
    volunteer: false,
    dispatch_state: 'ready',
    creator: '管理员',
    create_time: '2026-01-02T03:04:05Z',
    updator: '调度员',
    updator_name: '调度员',
    update_time: '2026-02-03T04:05:06Z',
    account: {
      id: 31,
      name: '张三',
      gender: 1,
      birth: '1990-05-06',
      phone: '139****5678',
      email: 'z***@aed.cn',
      address_code: '330106',
      location: '浙江省杭州市西湖区文三路20号',
      location_desc: '3号楼201',
      lon: 120.15,
      lat: 30.27,
    },
    can: { edit: true, delete: true },
  }
  return { ...base, ...patch, account: { ...base.account, name: patch.name ?? base.name, ...patch.account } }
}

/** The same responder as its detail sends it: phone and email whole. */
export function responderDetail(patch: Partial<Responder> = {}): Responder {
  const r = responder(patch)
  return {
    ...r,
    phone: '13912345678',
    email: 'zhang@aed.cn',
    account: { ...r.account, phone: '13912345678', email: 'zhang@aed.cn' },
  }
}

/** One line of a responder's history. */
export function responderChange(patch: Partial<ResponderChange> = {}): ResponderChange {
  return {
    id: 1,
    kind: 'created',
    detail: '登记为专业急救人员',
    operator: '管理员',
    create_time: '2026-01-02T03:04:05Z',
    ...patch,
  }
}
