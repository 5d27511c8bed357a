import { z } from 'zod'
import { endpoint } from './endpoint.ts'
import type { Lang } from './messages.ts'

/** A label in zh-CN (the spec's word) and en-US. */
export type Label = readonly [zh: string, en: string]

/** Device model by the code in characters 2-3 of the serial number. */
export const DEVICE_MODELS: Readonly<Record<string, string>> = {
  '64': 'D100',
  '65': 'B100',
  '66': 'E100',
  '67': 'D10',
  '68': 'B10',
  '69': 'E10',
  '70': 'D100A',
  '71': 'B100A',
  '72': 'E100A',
  '73': 'D10A',
  '74': 'B10A',
  '75': 'E10A',
}

/** AED brands sold in China, for third-party AED submissions; the Chinese name is the stored value. */
export const AED_BRANDS: readonly { name: string; name_en: string }[] = [
  { name: '迈瑞', name_en: 'Mindray' },
  { name: '飞利浦', name_en: 'Philips' },
  { name: '卓尔', name_en: 'ZOLL' },
  { name: '日本光电', name_en: 'Nihon Kohden' },
  { name: '史赛克', name_en: 'Stryker (Physio-Control, HeartSine)' },
  { name: '普美康', name_en: 'PRIMEDIC' },
  { name: '席勒', name_en: 'Schiller' },
  { name: '久心', name_en: 'Jiuxin Medical' },
  { name: '科曼', name_en: 'Comen' },
  { name: '鱼跃', name_en: 'Yuwell' },
  { name: '其他', name_en: 'Other' },
]

/** Where maps open with nothing else to show: Tiananmen, Beijing, in GCJ-02. */
export const DEFAULT_COORDINATE = { lat: 39.90923, lon: 116.397428 } as const

/** Services an organisation can be given in the service configuration, by key. */
export const APP_SERVICES: Readonly<Record<string, Label>> = {
  device_data_push: ['设备数据推送', 'Device data push'],
  event_push: ['事件推送', 'Event push'],
  open_api: ['开放接口', 'Open API'],
  sms_notify: ['短信通知', 'SMS notifications'],
  mini_program: ['小程序展示', 'Mini-program display'],
}

/** GET /api/v1/system/constants/: the console's common configuration. */
export const constantsSchema = z.object({
  device: z.object({
    /** Model name by serial code ("64" → "D100"). */
    model: z.record(z.string(), z.string()),
    /** Brand names (the stored values). */
    brand: z.array(z.string()),
    default_coordinate: z.object({ lat: z.number(), lon: z.number() }),
  }),
  /** Service key → name in the requester's language. */
  app_service: z.record(z.string(), z.string()),
})
export type Constants = z.infer<typeof constantsSchema>

/** Picks the label of the language. */
export const labelIn = (label: Label, lang: Lang) => label[lang === 'en-US' ? 1 : 0]

/** One entry of the data dictionary: a value and its label; bands add their bounds. */
type DictEntry = {
  value: number | null
  label: Label
  /** Band bounds: a value v is in the band when min < v <= max; a missing bound is open. */
  min?: number
  max?: number
}

const e = (value: number | null, zh: string, en: string, bounds: { min?: number; max?: number } = {}) =>
  ({ value, label: [zh, en], ...bounds }) as DictEntry

/** Every enumeration of the spec, labelled; `GET /api/v1/system/data-dict` answers them in the requester's language. */
export const DATA_DICT = {
  /** Device status; a device with disable_abnormal_display 1 shows as 0. */
  device_status: [
    e(0, '正常', 'Normal'),
    e(1, '预警', 'Warning'),
    e(2, '故障', 'Fault'),
    e(3, '位置偏移', 'Location offset'),
    e(4, '离线', 'Offline'),
  ],
  msg_type: [
    e(1, '呼救', 'Call for help'),
    e(2, '救援', 'Rescue'),
    e(3, '位置偏移', 'Location offset'),
    e(4, '救护箱开门', 'Cabinet door open'),
    e(6, '推送停用', 'Webhook disabled'),
    e(7, '证书到期', 'Certificate expiry'),
  ],
  /** Live alarm data_type. */
  alarm_type: [e(2, '急救告警', 'First-aid alarm'), e(4, '救护箱开门', 'First-aid box door open')],
  /** Self-test / inspection source of a fault. */
  report_type: [
    e(-1, '用户巡检', 'User inspection'),
    e(0, '开机自检', 'Power-on self-test'),
    e(1, '待机自检', 'Standby self-test'),
    e(2, '用户自检', 'User self-test'),
  ],
  open_state: [e(0, '不开放', 'Closed'), e(1, '半开放', 'Partly open'), e(2, '全开放', 'Fully open')],
  agency_type: [e(0, '系统机构', 'System'), e(1, '总代理', 'General agent'), e(2, '普通机构', 'Ordinary')],
  role_type: [
    e(0, '超级管理员', 'Super administrator'),
    e(1, '管理员', 'Administrator'),
    e(2, '普通用户', 'General user'),
  ],
  gender: [e(1, '男', 'Male'), e(2, '女', 'Female')],
  aid_aptitude: [e(0, '非专业', 'Non-professional'), e(1, '专业', 'Professional')],
  certificate_status: [e(0, '已过期', 'Expired'), e(1, '有效', 'Valid')],
  /** Volunteer and third-party AED review. */
  audit_status: [e(1, '审核中', 'In review'), e(2, '审核通过', 'Approved'), e(0, '已驳回', 'Rejected')],
  classroom_category: [
    e(1, '操作视频', 'Operation video'),
    e(2, '急救知识库', 'First-aid knowledge base'),
    e(3, '新闻资讯', 'News'),
  ],
  classroom_content_type: [
    e(1, '外部链接', 'External link'),
    e(2, '视频', 'Video'),
    e(3, '富文本', 'Rich text'),
  ],
  /** Battery percentage bands. */
  battery_band: [
    e(0, '电量耗尽', 'Exhausted', { max: 5 }),
    e(1, '电量低', 'Low', { min: 5, max: 9 }),
    e(2, '电量正常', 'Normal', { min: 9, max: 100 }),
  ],
  /** Electrode pad and battery expiry, in months left. */
  expiry_band: [
    e(0, '已过期', 'Expired', { max: 0 }),
    e(1, '3个月内', 'Under 3 months', { min: 0, max: 3 }),
    e(2, '3-6个月', '3-6 months', { min: 3, max: 6 }),
    e(3, '6个月以上', 'Over 6 months', { min: 6 }),
  ],
  /** Host (device) expiry, in months left. */
  host_expiry_band: [
    e(0, '已过期', 'Expired', { max: 0 }),
    e(1, '6个月内', 'Under 6 months', { min: 0, max: 6 }),
    e(2, '6-12个月', '6-12 months', { min: 6, max: 12 }),
    e(3, '1年以上', 'Over 1 year', { min: 12 }),
  ],
  /** aid_sms and exec_status_sms of the system settings. */
  sms_schedule: [e(1, '每天', 'Every day'), e(2, '周一至周五', 'Monday to Friday'), e(0, '不发送', 'Never')],
  /** Location-offset threshold in km; null switches the check off. */
  location_offset: [
    e(null, '关闭', 'Off'),
    ...[1, 2, 3, 5, 10, 15, 20, 30].map((km) => e(km, `超过${km}公里`, `Over ${km} km`)),
  ],
  alarm_sound: [e(1, '开启', 'On'), e(0, '关闭', 'Off')],
  /** Electrode pad and battery expiry reminders: months before expiry. */
  expire_reminder: [
    e(0, '不提醒', 'No reminder'),
    e(1, '剩余1个月', '1 month left'),
    e(2, '剩余2个月', '2 months left'),
    e(3, '剩余3个月', '3 months left'),
  ],
  /** Device change log update_type. */
  device_update_type: [
    e(0, '注册', 'Register'),
    e(1, '常规修改', 'Routine change'),
    e(2, '移动设备', 'Move device'),
    e(3, '更换设备', 'Replace device'),
    e(5, '删除', 'Delete'),
  ],
  /** Cabinet bind record update_type. */
  cabinet_update_type: [
    e(1, '分配/绑定', 'Assign or bind'),
    e(2, '绑定AED', 'Bind AED'),
    e(3, '解绑', 'Unbind'),
  ],
  /** Installation data the clean-up can delete. */
  clean_data_type: [
    e(1, '急救事件', 'Rescue events'),
    e(2, '预警', 'Warnings'),
    e(3, '位置偏移', 'Location offsets'),
    e(4, '故障', 'Faults'),
  ],
  /** An inspection's result (巡检结果). */
  inspect_status: [e(1, '正常', 'Normal'), e(0, '异常', 'Abnormal')],
  /** Usage periods of a membership, in days. */
  usage_period: [
    e(3, '3天', '3 days'),
    e(7, '7天', '7 days'),
    e(14, '14天', '14 days'),
    e(30, '30天', '30 days'),
  ],
} satisfies Record<string, DictEntry[]>
export type DataDictKey = keyof typeof DATA_DICT

/** The label of one dictionary value in the language (the value itself when unknown). */
export function dictLabel(key: DataDictKey, value: number | null, lang: Lang = 'zh-CN'): string {
  const entry = (DATA_DICT[key] as readonly DictEntry[]).find((x) => x.value === value)
  return entry ? labelIn(entry.label, lang) : String(value)
}

/** The band of a value: the entry with min < v <= max. */
export function bandOf(bands: readonly DictEntry[], v: number): number | null {
  const hit = bands.find((b) => (b.min === undefined || v > b.min) && (b.max === undefined || v <= b.max))
  return hit ? (hit.value as number) : null
}

export const dictItemSchema = z.object({
  value: z.number().nullable(),
  label: z.string(),
  min: z.number().optional(),
  max: z.number().optional(),
})
export type DictItem = z.infer<typeof dictItemSchema>

const dictKeys = Object.keys(DATA_DICT) as DataDictKey[]

/** GET /api/v1/system/data-dict. */
export const dataDictSchema = z.object({
  ...(Object.fromEntries(dictKeys.map((k) => [k, z.array(dictItemSchema)])) as Record<
    DataDictKey,
    z.ZodArray<typeof dictItemSchema>
  >),
  /** URL of the .xlsx template for importing factory devices. */
  device_import_template: z.string(),
})
export type DataDict = z.infer<typeof dataDictSchema>

/** The dictionary with labels in one language. */
export function localDataDict(lang: Lang): Record<DataDictKey, DictItem[]> {
  return Object.fromEntries(
    dictKeys.map((k) => [k, DATA_DICT[k].map((d) => ({ ...d, label: labelIn(d.label, lang) }))]),
  ) as Record<DataDictKey, DictItem[]>
}

/** The console's common configuration and the data dictionary. */
export const constantsApi = {
  constants: endpoint({
    method: 'GET',
    path: '/api/v1/system/constants/',
    summary: 'Device models and brands, the default map point, the organisation service names',
    response: constantsSchema,
  }),
  dataDict: endpoint({
    method: 'GET',
    path: '/api/v1/system/data-dict',
    summary: 'Every enumeration with labels in the requester’s language, and the device import template URL',
    response: dataDictSchema,
  }),
}
