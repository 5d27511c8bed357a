import type { MessageRow } from '@aed/contracts/message'

/** A message row for tests, `minutesAgo` old. */
export function messageRow(id: number, patch: Partial<MessageRow> = {}, minutesAgo = 1): MessageRow {
  return {
    id,
    msg_type: 2,
    msg_title: `急救事件：设备 A64000000${id} 开始使用`,
    msg_time: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
    device_sn: `A64000000${id}`,
    cabinet_sn: null,
    location: '杭州市西湖区文三路 1 号',
    agency_name: '西湖急救中心',
    is_confirm: 0,
    event_type: 2,
    event_id: 100 + id,
    confirmed_name: null,
    confirm_time: null,
    escalations: [],
    ...patch,
  }
}
