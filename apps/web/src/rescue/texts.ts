/** The page's two languages: Chinese unless the phone asks for English. */
export type Lang = 'zh' | 'en'

const zh = {
  title: '紧急呼救',
  lead: '附近有人心脏骤停，需要您的帮助',
  hello: (name: string) => `${name}，您好`,
  rolePatient: '直接去现场',
  rolePatientHint: '请尽快赶到患者身边，立即开始胸外按压',
  roleAed: '先取AED再去现场',
  roleAedHint: '请先取附近的AED，再送到患者身边',
  bringAed: '已取到AED，请尽快送到患者身边',
  answerIn: (s: number) => (s < 60 ? `请在 ${s} 秒内答复` : `请在 ${formatClock(s)} 内答复`),
  answerLate: '答复时间已到',
  accepted: (n: number) => (n > 0 ? `已有 ${n} 人接受` : '暂无人接受'),
  calledAgo: (m: number) => (m < 1 ? '刚刚呼救' : `${m} 分钟前呼救`),
  callPlace: '呼救地点',
  callNote: '现场情况',
  callTime: '呼救时间',
  aedTitle: '要取的AED',
  aedWhere: '具体位置',
  aedCabinet: (sn: string) => `救护箱 ${sn}`,
  unlocked: '已开锁',
  locked: '未开锁',
  aedPhoto: 'AED位置照片',
  /** The way line: to the next stop, or the whole way by the AED. */
  way: { aed: '到AED', patient: '到现场', via: '经AED到现场' },
  walk: (min: number) => `步行约 ${min} 分钟`,
  accept: '接受',
  decline: '拒绝',
  arrived: '已到达',
  gotAed: '已取到AED',
  navigateTo: { aed: '导航到AED', patient: '导航到现场' },
  ended: '感谢您的帮助',
  apps: { amap: '高德地图', tencent: '腾讯地图', apple: 'Apple 地图' },
  doneAccepted: '已接受，请立即出发',
  doneArrived: '您已到达现场',
  cprPatient: '请立即胸外按压：用力、快速（每分钟100-120次）；AED到后立即开机，按语音提示操作',
  cprAed: '请立即打开AED，按语音提示操作；贴电极片前后持续胸外按压（每分钟100-120次）',
  doneDeclined: '您已拒绝本次呼救，感谢您的答复',
  lateAnswer: '答复时间已过，如您仍能赶去，仍可接受',
  doneStoodDown: '已有足够的急救员赶往现场，您无需再去。感谢您的响应！',
  doneClosed: '本次呼救已结束，感谢您的帮助',
  sharing: '正在共享您的位置',
  noLocation: '未能获取您的位置，请在浏览器中允许定位',
  badLink: '链接无法打开',
  badLinkHint: '请以短信中最新的链接为准',
  offline: '网络连接失败',
  offlineHint: '请检查网络后重试',
  retry: '重试',
  loading: '正在加载…',
  me: '我',
  patient: '患者',
  aed: 'AED',
  north: '北',
  schematic: '示意图，非实际道路',
  language: 'English',
}

/** The page's texts: one object a language, the same keys (the English one is checked against it). */
export type Texts = typeof zh

const en: Texts = {
  title: 'Emergency call',
  lead: 'Someone nearby is in cardiac arrest and needs your help',
  hello: (name: string) => `Hello, ${name}`,
  rolePatient: 'Go to the patient',
  rolePatientHint: 'Get to the patient as fast as you can and start chest compressions',
  roleAed: 'Fetch the AED, then go to the patient',
  roleAedHint: 'Pick up the nearby AED first and bring it to the patient',
  bringAed: 'You have the AED: bring it to the patient as fast as you can',
  answerIn: (s: number) =>
    s < 60 ? `Please answer within ${s} s` : `Please answer within ${formatClock(s)}`,
  answerLate: 'Time to answer is up',
  accepted: (n: number) => (n > 0 ? `${n} accepted so far` : 'Nobody has accepted yet'),
  calledAgo: (m: number) => (m < 1 ? 'Called just now' : `Called ${m} min ago`),
  callPlace: 'Place',
  callNote: 'What the caller said',
  callTime: 'Called at',
  aedTitle: 'The AED to fetch',
  aedWhere: 'Exactly where',
  aedCabinet: (sn: string) => `Cabinet ${sn}`,
  unlocked: 'Unlocked',
  locked: 'Locked',
  aedPhoto: 'Photo of where the AED is',
  way: { aed: 'To the AED', patient: 'To the patient', via: 'By the AED to the patient' },
  walk: (min: number) => `about ${min} min walk`,
  accept: 'Accept',
  decline: 'Decline',
  arrived: 'I have arrived',
  gotAed: 'I have the AED',
  navigateTo: { aed: 'Directions to the AED', patient: 'Directions to the patient' },
  ended: 'Thank you for your help',
  apps: { amap: 'AMap', tencent: 'Tencent Maps', apple: 'Apple Maps' },
  doneAccepted: 'Accepted: please set off now',
  doneArrived: 'You are at the scene',
  cprPatient:
    'Start chest compressions now: hard and fast (100-120 a minute). When the AED comes, switch it on and follow its voice',
  cprAed:
    'Switch the AED on now and follow its voice; keep up chest compressions (100-120 a minute) until the pads are on',
  doneDeclined: 'You declined this call. Thank you for answering',
  lateAnswer: 'The time to answer has passed; if you can still go, you can still accept',
  doneStoodDown: 'Enough responders are on their way: you are not needed. Thank you for answering!',
  doneClosed: 'This call has ended. Thank you for your help',
  sharing: 'Sharing your location',
  noLocation: 'Your location is unavailable: please allow location access in the browser',
  badLink: 'This link cannot be opened',
  badLinkHint: 'Please use the latest link in your text messages',
  offline: 'No connection',
  offlineHint: 'Check your network and try again',
  retry: 'Try again',
  loading: 'Loading…',
  me: 'Me',
  patient: 'Patient',
  aed: 'AED',
  north: 'N',
  schematic: 'Sketch, not the actual streets',
  language: '中文',
}

export const TEXTS: Record<Lang, Texts> = { zh, en }

const STORED = 'rescue.lang'

/** The language chosen on this phone before, else English for a phone set to English, else Chinese. */
export function initialLang(): Lang {
  try {
    const stored = localStorage.getItem(STORED)
    if (stored === 'zh' || stored === 'en') return stored
  } catch {
    // Private mode or storage off: fall back to the phone's language.
  }
  return /^en\b/i.test(navigator.language) ? 'en' : 'zh'
}

/** Keeps the switch's choice for the next alert. */
export function storeLang(lang: Lang) {
  try {
    localStorage.setItem(STORED, lang)
  } catch {
    // Not kept: the page still switches.
  }
}

/** Metres as a person reads them: 80 米, 450 米, 1.2 公里 (m, km). */
export function formatDistance(m: number, lang: Lang): string {
  if (m < 1000) {
    const tens = Math.max(10, Math.round(m / 10) * 10)
    return lang === 'en' ? `${tens} m` : `${tens} 米`
  }
  const km = (m / 1000).toFixed(1)
  return lang === 'en' ? `${km} km` : `${km} 公里`
}

/** Seconds as m:ss. */
export function formatClock(s: number): string {
  const left = Math.max(0, Math.round(s))
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`
}
