import type { Duplicate, ThirdPartyAed, Volunteer } from '@aed/contracts/review'
import type { MockCall } from './mockApi'

const can = { audit: true, edit: true, delete: true }

/** A volunteer in review as the list sends it (phone masked); `patch` changes any field. */
export function volunteer(patch: Partial<Volunteer> = {}): Volunteer {
  return {
    id: 1,
    submitter_name: '王小明',
    submitter_phone: '139****5678',
    guard_area: '杭州市西湖区文三路',
    has_cert: 1,
    cert_img: '/files/cert-1.png',
    lat: 30.27,
    lon: 120.15,
    create_time: '2026-03-01T02:00:00Z',
    audit_time: null,
    audit_status: 1,
    rejected_reason: null,
    auditor: null,
    source: '小程序',
    responder_id: null,
    duplicates: [],
    can,
    ...patch,
  }
}

/** A third-party AED in review as the list sends it. */
export function thirdPartyAed(patch: Partial<ThirdPartyAed> = {}): ThirdPartyAed {
  return {
    id: 1,
    brand: '迈瑞',
    location: '浙江省杭州市西湖区文三路90号',
    location_desc: '一楼大厅',
    address_code: '330106',
    lat: 30.27,
    lon: 120.15,
    install_imgs: ['/files/site-1.jpg', '/files/site-2.jpg'],
    device_sn: null,
    submitter_name: '李华',
    submitter_phone: '138****1234',
    create_time: '2026-03-01T02:00:00Z',
    audit_time: null,
    audit_status: 1,
    rejected_reason: null,
    auditor: null,
    source: '小程序',
    duplicates: [],
    can,
    ...patch,
  }
}

/** A possible duplicate: one of our devices 12 m away. */
export function duplicate(patch: Partial<Duplicate> = {}): Duplicate {
  return {
    kind: 'device',
    id: 5,
    sn: 'A640000005',
    label: '浙江省杭州市西湖区文三路88号',
    distance: 12,
    similarity: 0.62,
    reason: 'place',
    lat: 30.2701,
    lon: 120.1501,
    location_desc: '大厅东侧',
    photos: ['/files/near-5.jpg'],
    ...patch,
  }
}

/** A row the signed-in member may neither decide, edit nor delete. */
export const readOnly = { audit: false, edit: false, delete: false }

/**
 * The fake answer of a review list: the rows on the asked tab (audit_status), or the approved
 * tab's file when export_xls=true.
 */
export function reviewListAnswer<R extends Volunteer | ThirdPartyAed>(
  rows: R[],
  listCan = { audit: true, export: true },
) {
  return ({ query }: MockCall) =>
    query.get('export_xls') === 'true'
      ? { code: 0, data: { file_base64: btoa('PK-xlsx'), count: rows.length } }
      : {
          code: 0,
          data: {
            count: rows.length,
            resource: rows.map((r) => ({ ...r, audit_status: Number(query.get('audit_status')) })),
            can: listCan,
          },
        }
}

/** The list calls made for one tab. */
export const callsOfTab = (lists: MockCall[], status: number) =>
  lists.filter((c) => c.query.get('audit_status') === String(status))
