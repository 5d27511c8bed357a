import type { messageZhCN } from './zh-CN'

/** The message centre and the alarm popup: en-US texts, with the keys of the zh-CN set. */
export const messageEnUS: typeof messageZhCN = {
  message: {
    centre: 'Message centre',
    unconfirmed: '{{count}} unconfirmed',
    empty: 'No messages',
    loading: 'Loading…',
    noMore: 'No more messages',
    confirm: 'Confirm',
    details: 'Details',
    confirmed: 'Confirmed',
    confirmedBy: 'Confirmed by {{name}} at {{time}}',
    stale: 'Over 10 min',
    device: 'Device',
    cabinet: 'Cabinet',
    type: {
      '1': 'Call',
      '2': 'Rescue',
      '3': 'Location offset',
      '4': 'Cabinet door open',
      '5': 'Message not processed',
      '6': 'Webhook disabled',
      '7': 'Certificate expiry',
      '8': 'Public volunteer',
      '9': 'Third-party AED',
    },
    alarm: {
      title: 'Live alarms',
      aid: 'First-aid alarm',
      door: 'First-aid box door open',
      escalated: 'Escalation {{level}}',
      close: 'Close',
      location: 'Location',
      agency: 'Organisation',
      time: 'Time',
    },
    autoplay: {
      title: 'Notice',
      text: 'Currently auto-playing audio',
      play: 'OK',
    },
  },
}
