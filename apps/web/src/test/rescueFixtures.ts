import type { ResponderAlert } from '@aed/contracts/dispatch'

/** A 43-character alert link token, as the SMS carries it. */
export const ALERT_TOKEN = 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9f'

/** An alert as the responder's link answers it: fetch an AED first (role aed), just alerted. */
export function alert(patch: Partial<ResponderAlert> = {}): ResponderAlert {
  return {
    state: 'alerted',
    role: 'aed',
    open: true,
    responder_name: '李四',
    call: {
      location: '杭州市西湖区文三路259号 昌地火炬大厦',
      lat: 30.2741,
      lon: 120.1351,
      call_time: '2026-11-26 09:58:30',
      description: '男性，约60岁，突然倒地，无呼吸',
    },
    aed: {
      device_sn: 'AED-HZ-0001',
      lat: 30.2752,
      lon: 120.1372,
      location: '文三路地铁站B口',
      location_desc: '站厅层B口闸机旁，消防栓右侧的白色机柜',
      photo: '/files/aed-0001.jpg',
      cabinet_sn: 'CAB-HZ-0001',
      unlocked: false,
    },
    distance: 420,
    eta_s: 183,
    answer_left_s: 40,
    accepted: 1,
    ...patch,
  }
}

/** The same alert sent straight to the patient (no AED to fetch). */
export function patientAlert(patch: Partial<ResponderAlert> = {}): ResponderAlert {
  return alert({ role: 'patient', aed: null, distance: 260, eta_s: 113, ...patch })
}
