import type { settingsZhCN } from './zh-CN'

/** The system settings: en-US texts, with the keys of the zh-CN set. */
export const settingsEnUS: typeof settingsZhCN = {
  systemSettings: {
    title: 'System settings',
    agency: 'Organisation:',
    sms: 'SMS notifications',
    device: 'Device reminders',
    alarm: 'Alarms',
    aidSms: 'First-aid SMS',
    aidSmsHint: 'Send SMS to the people concerned when a first-aid event happens',
    execSms: 'Abnormal status SMS',
    execSmsHint: 'Send SMS within the window below when a device has a fault, warning, goes offline or moves',
    window: 'Abnormal SMS window',
    windowRequired: 'Please choose the window',
    offset: 'Location-offset threshold',
    offsetHint: 'A device farther than this from its installed position counts as moved',
    padExpire: 'Electrode pad expiry reminder',
    batteryExpire: 'Battery expiry reminder',
    alarmSound: 'Alarm sound',
    alarmSoundHint: 'Play a sound when a live alarm arrives',
    escalate: 'Escalate unconfirmed alarms after (minutes)',
    escalateHint:
      "A first-aid or cabinet door alarm nobody confirms in this time is pushed again and sent by SMS to the organisation's administrators, then to each organisation above",
    escalateRange: 'Enter a whole number from 1 to 60',
    call: 'Calls',
    callClose: 'Close calls after',
    callCloseHint: 'A call still open this long after it was recorded or received closes by itself',
    callCloseUnit: 'minutes',
    callRadius: 'Around a call',
    callRadiusHint:
      'A call’s details show the normal devices and responders within this distance; a rescue started within it is linked to the call',
    callRadiusUnit: 'm',
    rangeInt: 'Enter a whole number from {{min}} to {{max}}',
  },
}
