import type { rescueZhCN } from './zh-CN'

/** The emergency page's rescue tab: en-US texts, with the keys of the zh-CN set. */
export const rescueEnUS: typeof rescueZhCN = {
  rescue: {
    list: 'Rescues',
    eventLocation: 'Rescue place',
    eventTime: 'Rescue time',
    deviceSn: 'Device SN',
    snPlaceholder: 'Enter the device SN',
    model: 'Model',
    location: 'Installed at',
    name: 'Site',
    agency: 'Organisation',
    lat: 'Latitude',
    lon: 'Longitude',
    call: 'Linked call',
    returnState: 'Returned',
    returnStates: { out: 'Not returned', returned: 'Returned', not_returned: 'Overdue' },
    region: 'Region',
    minutes: '{{count}} minutes',
    days: '{{count}} days',
    ecg: 'Download ECG',
    device: 'Device details',
  },
}
