import type { ServiceConfig } from '@aed/contracts/service-config'

/** A configuration of the West Lake centre as the list answers it (tests patch what they need). */
export function serviceConfigFixture(patch: Partial<ServiceConfig> = {}): ServiceConfig {
  return {
    id: 9,
    agency_id: 4,
    agency_name: '杭州市西湖区急救中心',
    service: ['event_push'],
    service_list: ['事件推送'],
    state: 0,
    apply_time: '2026-01-02T03:04:05Z',
    level: 3,
    push_url: null,
    push_disabled: null,
    ...patch,
  }
}
