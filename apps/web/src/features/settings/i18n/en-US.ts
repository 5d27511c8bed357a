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
    rangeNumber: 'Enter a number from {{min}} to {{max}}',
    listSep: ', ',
    people: 'people',
    dispatch: 'Dispatch',
    dispatchFirstWave: 'First wave',
    dispatchFirstWaveHint:
      'Default {{value}}: the nearest few are alerted first, one more for each decline or silence, rather than everyone at once',
    dispatchRadii: 'Radius of each phase (m)',
    dispatchRadiiHint:
      'Default {{value}} m: nearest first, widening phase by phase; Heartrunner (Sweden) alerts within 1.3 km, which the last phase covers',
    dispatchRadiusPhase: 'Radius of phase {{n}}',
    dispatchRadiusRemove: 'Remove phase {{n}}',
    dispatchRadiusAdd: 'Add a phase',
    dispatchRadiiRange: 'Enter 1 to 5 whole numbers from {{min}} to {{max}}, each larger than the one before',
    dispatchPhase: 'Seconds between phases',
    dispatchPhaseHint:
      'Default {{value}} s: while too few have accepted, the radius widens to the next phase this often',
    dispatchMax: 'Most alerted',
    dispatchMaxHint:
      'Default {{value}}: as Heartrunner (at most 30 within 1.3 km), enough to find helpers without disturbing more',
    dispatchAnswer: 'Seconds to answer',
    dispatchAnswerHint:
      'Default {{value}} s: an unanswered alert then passes to the next person, a decline at once (as GoodSAM does), so a call never waits on one',
    dispatchEnough: 'Enough accepted',
    dispatchEnoughHint:
      'Default {{value}}: as FirstAED, three accepted stop the alerts and the others are stood down',
    dispatchPatientPct: 'Straight to the patient (%)',
    dispatchPatientPctHint:
      'Default {{value}}%: as HartslagNu (the Netherlands), about a third go straight to start compressions, two thirds fetch an AED first',
    dispatchAedDetour: 'Detour for an AED (m)',
    dispatchAedDetourHint:
      'Default {{value}} m: a responder fetches an AED only when it adds no more than this to the way; a longer detour delays compressions',
    dispatchSpeed: 'Walking speed (m/s)',
    dispatchSpeedHint:
      "Default {{value}} m/s: Heartrunner responders' median speed, used for arrival times and to choose who goes",
    dispatchOnRescue: "Dispatch on a device's rescue without a call",
    dispatchOnRescueHint:
      'Default off: dispatch also when a device starts a rescue that no call explains; an opened AED may be a drill or a mistake',
    dispatchCabinetSiren: 'Siren when a cabinet unlocks',
    dispatchCabinetSirenHint:
      'Default off: a cabinet unlocks when a responder accepts its AED; with this on it also sounds, easier to find but loud',
  },
}
