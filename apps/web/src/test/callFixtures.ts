import type { Call, CallDetail } from '@aed/contracts/call'
import type { Dispatch, DispatchAlert } from '@aed/contracts/dispatch'
import type { RescueRow } from '@aed/contracts/rescue'

/** An open call as the list sends it (phone masked); `patch` changes any field. */
export function call(patch: Partial<Call> = {}): Call {
  return {
    id: 1,
    location: '浙江省杭州市西湖区文三路20号',
    region: '浙江省 杭州市 西湖区',
    address_code: '330106',
    phone: '139****5678',
    call_time: '2026-03-10 09:30:00',
    lat: 30.27,
    lon: 120.15,
    description: '男子倒地',
    status: 1,
    outcome: null,
    closed_at: null,
    close_reason: null,
    remark: null,
    source: 'console',
    recorder: '调度员',
    agency_id: 10,
    agency_name: '西湖急救中心',
    rescue: null,
    can: { close: true },
    ...patch,
  }
}

/** The same call as its detail sends it: the phone whole, two devices and a responder near it, its timeline. */
export function callDetail(patch: Partial<CallDetail> = {}): CallDetail {
  return {
    ...call(patch),
    phone: '13912345678',
    dispatch: null,
    devices: [
      {
        id: 51,
        device_sn: 'A640000051',
        location: '文三路地铁站',
        lon: 120.151,
        lat: 30.271,
        distance: 120,
        readiness: 'ready',
      },
      {
        id: 52,
        device_sn: 'A640000052',
        location: null,
        lon: 120.155,
        lat: 30.268,
        distance: 480,
        readiness: 'ready',
      },
    ],
    responders: [
      {
        id: 61,
        name: '李医生',
        lon: 120.149,
        lat: 30.272,
        distance: 260,
        aid_aptitude: 1,
        dispatch_state: 'ready',
      },
    ],
    radius: 1000,
    timeline: [
      { time: '2026-03-10T01:30:00Z', kind: 'recorded', text: '调度员登记呼救' },
      { time: '2026-03-10T01:30:01Z', kind: 'message', text: '已通知消息中心并发出告警' },
    ],
    ...patch,
  }
}

/** A rescue of the list, linked to call 1, its AED back in its cabinet. */
export function rescueRow(patch: Partial<RescueRow> = {}): RescueRow {
  return {
    id: 7,
    rescue_event_id: 'R-20260310-1',
    event_location: '文三路地铁站B口',
    event_time: '2026-03-10 09:36:00',
    ended_at: '2026-03-10 09:58:00',
    device_id: 51,
    device_sn: 'A640000051',
    model: 'D100',
    location: '文三路地铁站',
    name: '地铁站服务台',
    agency_id: 10,
    agency_name: '西湖急救中心',
    event_lat: 30.271,
    event_lon: 120.151,
    has_ecg: true,
    ecg_file_url: '/files/ecg-7.dat',
    call: { id: 1, call_time: '2026-03-10 09:30:00', location: '浙江省杭州市西湖区文三路20号' },
    return_state: 'returned',
    ...patch,
  }
}

/** An alert of call 1's dispatch: 李医生 (responder 61) sent straight to the patient, not answered yet. */
export function dispatchAlert(patch: Partial<DispatchAlert> = {}): DispatchAlert {
  return {
    id: 1,
    responder_id: 61,
    name: '李医生',
    phone: '138****0061',
    role: 'patient',
    device_sn: null,
    cabinet_sn: null,
    state: 'alerted',
    distance: 260,
    eta_s: 113,
    alerted_at: '2026-03-10 09:30:05',
    answered_at: null,
    arrived_at: null,
    lat: null,
    lon: null,
    located_at: null,
    aed_lat: null,
    aed_lon: null,
    ...patch,
  }
}

/** Call 1's dispatch in its first phase (500 m), with `alerts` (李医生 alerted by default) and the two nearby AEDs. */
export function dispatchOf(patch: Partial<Dispatch> = {}): Dispatch {
  return {
    id: 3,
    state: 'running',
    phase: 0,
    radius: 500,
    accepted: 0,
    arrived: 0,
    alerts: [dispatchAlert()],
    aeds: [
      {
        device_id: 51,
        device_sn: 'A640000051',
        lat: 30.271,
        lon: 120.151,
        distance: 120,
        cabinet_sn: 'C510',
      },
      { device_id: 53, device_sn: 'A640000053', lat: 30.274, lon: 120.153, distance: 610, cabinet_sn: null },
    ],
    ...patch,
  }
}
