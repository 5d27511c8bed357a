import type { Permissions } from '@aed/contracts'
import {
  bigint,
  bigserial,
  boolean,
  date,
  doublePrecision,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
  timestamp,
  varchar,
} from 'drizzle-orm/pg-core'

// Mirrors the SQL migrations in ./migrations (the source of truth for the database).
const id = () => bigserial('id', { mode: 'number' }).primaryKey()
const ref = (name: string) => bigint(name, { mode: 'number' })
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

export const agencies = pgTable('agencies', {
  id: id(),
  name: varchar('name', { length: 100 }).notNull(),
  agency_type: smallint('agency_type').notNull(),
  parent_id: ref('parent_id'),
  level: integer('level').notNull(),
  /** Materialised path '/1/5/12/'. */
  index_link: text('index_link').notNull(),
  phone: varchar('phone', { length: 20 }),
  contact_name: varchar('contact_name', { length: 50 }),
  location: varchar('location', { length: 200 }),
  address_code: varchar('address_code', { length: 6 }),
  disabled: boolean('disabled').notNull(),
  time_zone: text('time_zone').notNull(),
  creator: ref('creator'),
  create_time: ts('create_time').notNull().defaultNow(),
  update_time: ts('update_time').notNull().defaultNow(),
})

export const accounts = pgTable('accounts', {
  id: id(),
  phone: varchar('phone', { length: 11 }).notNull(),
  name: varchar('name', { length: 50 }).notNull(),
  email: varchar('email', { length: 100 }),
  gender: smallint('gender'),
  birth: date('birth', { mode: 'string' }),
  nationality: varchar('nationality', { length: 10 }),
  location: varchar('location', { length: 200 }),
  location_desc: varchar('location_desc', { length: 200 }),
  address_code: varchar('address_code', { length: 6 }),
  lat: doublePrecision('lat'),
  lon: doublePrecision('lon'),
  avatar: text('avatar'),
  password_hash: text('password_hash'),
  password_changed_at: ts('password_changed_at').notNull().defaultNow(),
  /** Bumped on password change; older tokens stop working. */
  token_version: integer('token_version').notNull().default(0),
  /** Password sign-in also needs an SMS code. */
  sms_dual_verify: boolean('sms_dual_verify').notNull().default(false),
  failed_login_count: integer('failed_login_count').notNull().default(0),
  locked_until: ts('locked_until'),
  wechat_openid: text('wechat_openid'),
  /** Membership signed in last: the default of the next sign-in. */
  last_member_id: ref('last_member_id'),
  creator: ref('creator'),
  create_time: ts('create_time').notNull().defaultNow(),
  updator: ref('updator'),
  update_time: ts('update_time').notNull().defaultNow(),
})

export const members = pgTable('members', {
  id: id(),
  account_id: ref('account_id').notNull(),
  agency_id: ref('agency_id').notNull(),
  role_type: smallint('role_type').notNull(),
  permissions: jsonb('permissions').$type<Permissions>().notNull(),
  /** After this moment the membership can no longer sign in; null is unlimited. */
  use_expire: ts('use_expire'),
  creator: ref('creator'),
  create_time: ts('create_time').notNull().defaultNow(),
  updator: ref('updator'),
  update_time: ts('update_time').notNull().defaultNow(),
})

export const smsCodes = pgTable('sms_codes', {
  id: id(),
  phone: varchar('phone', { length: 11 }).notNull(),
  scene: varchar('scene', { length: 20 }).notNull(),
  /** HMAC of the code; the code itself is never stored. */
  code_hash: text('code_hash').notNull(),
  ip: varchar('ip', { length: 64 }),
  attempts: integer('attempts').notNull().default(0),
  used: boolean('used').notNull().default(false),
  create_time: ts('create_time').notNull().defaultNow(),
  expire_time: ts('expire_time').notNull(),
})

export const smsOutbox = pgTable('sms_outbox', {
  id: id(),
  phone: varchar('phone', { length: 11 }).notNull(),
  content: text('content').notNull(),
  create_time: ts('create_time').notNull().defaultNow(),
})

export const operationLogs = pgTable('operation_logs', {
  id: id(),
  agency_id: ref('agency_id'),
  member_id: ref('member_id'),
  operator: varchar('operator', { length: 50 }).notNull(),
  operation_type: varchar('operation_type', { length: 50 }).notNull(),
  content: text('content').notNull(),
  create_time: ts('create_time').notNull().defaultNow(),
})

export const agencySettings = pgTable('agency_settings', {
  agency_id: ref('agency_id').primaryKey(),
  config: jsonb('config').$type<Record<string, unknown>>().notNull(),
  update_time: ts('update_time').notNull().defaultNow(),
})

export const oauthStates = pgTable('oauth_states', {
  state: varchar('state', { length: 64 }).primaryKey(),
  purpose: varchar('purpose', { length: 20 }).notNull(),
  member_id: ref('member_id'),
  expire_time: ts('expire_time').notNull(),
})

export const classrooms = pgTable('classrooms', {
  id: id(),
  /** Owner: the creator's organisation. */
  agency_id: ref('agency_id').notNull(),
  title: varchar('title', { length: 20 }).notNull(),
  /** 1 operation video, 2 first-aid knowledge base, 3 news. */
  category: smallint('category').notNull(),
  describe: varchar('describe', { length: 500 }).notNull().default(''),
  /** A video ID for category 1, else an http(s) URL. */
  link: varchar('link', { length: 1000 }).notNull(),
  /** Cover image URL. */
  illustration: varchar('illustration', { length: 1000 }),
  /** 1 external link, 2 video, 3 rich text. */
  content_type: smallint('content_type').notNull(),
  /** Sanitised rich text. */
  content: text('content').notNull().default(''),
  creator: ref('creator'),
  create_time: ts('create_time').notNull().defaultNow(),
  update_time: ts('update_time').notNull().defaultNow(),
})

export const appServiceConfigs = pgTable('app_service_configs', {
  id: id(),
  agency_id: ref('agency_id').notNull(),
  /** Service keys (APP_SERVICES in contracts). */
  service: jsonb('service').$type<string[]>().notNull(),
  /** 1 enabled, 0 disabled. */
  state: smallint('state').notNull(),
  secret: varchar('secret', { length: 64 }).notNull(),
  access_token: varchar('access_token', { length: 96 }).notNull(),
  apply_time: ts('apply_time').notNull().defaultNow(),
  creator: ref('creator'),
  create_time: ts('create_time').notNull().defaultNow(),
  update_time: ts('update_time').notNull().defaultNow(),
})

/** When each scheduled job last ran, cluster-wide (jobs/runner.ts). */
export const jobRuns = pgTable('job_runs', {
  name: varchar('name', { length: 100 }).primaryKey(),
  last_run_at: ts('last_run_at'),
  last_started_at: ts('last_started_at'),
  last_error: text('last_error'),
  last_error_at: ts('last_error_at'),
  failures: integer('failures').notNull().default(0),
  runs: bigint('runs', { mode: 'number' }).notNull().default(0),
})

/**
 * Nonces of signed device requests, kept 30 minutes to refuse replays (plugins/auth/device.ts).
 * Primary key (device_sn, nonce) in the migration.
 */
export const deviceNonces = pgTable('device_nonces', {
  device_sn: varchar('device_sn', { length: 64 }).notNull(),
  nonce: varchar('nonce', { length: 64 }).notNull(),
  seen_at: ts('seen_at').notNull(),
})

/** Every device made (the factory list); `installation_id` set while it is registered at a site. */
export const devices = pgTable('devices', {
  id: id(),
  device_sn: varchar('device_sn', { length: 32 }).notNull(),
  /** From characters 2-3 of the serial; '' when unknown. */
  model: varchar('model', { length: 16 }).notNull().default(''),
  fw_version: varchar('fw_version', { length: 32 }),
  /** The owning organisation (factory assignment). */
  agency_id: ref('agency_id').notNull(),
  /** The device secret, sealed (lib/sealed.ts); the previous one works until prev_secret_until. */
  secret_enc: text('secret_enc').notNull(),
  prev_secret_enc: text('prev_secret_enc'),
  prev_secret_until: ts('prev_secret_until'),
  installation_id: ref('installation_id'),
  /** 0-4 as the engine derives it. */
  status: smallint('status').notNull().default(0),
  battery: smallint('battery'),
  creator: ref('creator'),
  create_time: ts('create_time').notNull().defaultNow(),
  update_time: ts('update_time').notNull().defaultNow(),
  deleted_at: ts('deleted_at'),
})

/** A site where a device is installed (register_code), with its place, people, hours and expiry dates. */
export const installations = pgTable('installations', {
  id: id(),
  register_code: varchar('register_code', { length: 32 }).notNull(),
  device_id: ref('device_id'),
  agency_id: ref('agency_id').notNull(),
  location: varchar('location', { length: 200 }).notNull(),
  location_desc: varchar('location_desc', { length: 200 }),
  address_code: varchar('address_code', { length: 6 }),
  /** GCJ-02. */
  lat: doublePrecision('lat').notNull(),
  lon: doublePrecision('lon').notNull(),
  device_manager_id: ref('device_manager_id'),
  contact: varchar('contact', { length: 50 }),
  contact_phone: varchar('contact_phone', { length: 20 }),
  /** 0 closed, 1 semi-open, 2 fully open. */
  open_state: smallint('open_state').notNull(),
  /** 1 Monday ... 7 Sunday. */
  open_day: smallint('open_day').array().notNull().default([]),
  open_time_period: jsonb('open_time_period').$type<[string, string][]>().notNull().default([]),
  xcx_display: smallint('xcx_display').notNull().default(1),
  disable_abnormal_sms_notify: smallint('disable_abnormal_sms_notify').notNull().default(0),
  disable_abnormal_display: smallint('disable_abnormal_display').notNull().default(0),
  chest_shot_img: text('chest_shot_img').notNull(),
  long_shot_img: text('long_shot_img').notNull(),
  battery_expire: date('battery_expire', { mode: 'string' }).notNull(),
  electrode_sheet_expire: date('electrode_sheet_expire', { mode: 'string' }).notNull(),
  host_expire: date('host_expire', { mode: 'string' }).notNull(),
  /** Geofence radius in metres; overrides the organisation's offset threshold. */
  safety_radius: integer('safety_radius'),
  registrant: ref('registrant'),
  register_time: ts('register_time').notNull().defaultNow(),
  updator: ref('updator'),
  update_time: ts('update_time').notNull().defaultNow(),
  removed_at: ts('removed_at'),
})

/** The change record of an installation: register 0, change 1, move 2, replace 3, delete 5. */
export const installationChanges = pgTable('installation_changes', {
  id: id(),
  installation_id: ref('installation_id').notNull(),
  update_type: smallint('update_type').notNull(),
  update_field: text('update_field').notNull().default(''),
  old_device_sn: varchar('old_device_sn', { length: 32 }),
  updator: ref('updator'),
  updator_name: varchar('updator_name', { length: 50 }).notNull(),
  update_time: ts('update_time').notNull().defaultNow(),
})

/** Routine inspections recorded by staff. */
export const deviceInspections = pgTable('device_inspections', {
  id: id(),
  device_id: ref('device_id').notNull(),
  installation_id: ref('installation_id'),
  agency_id: ref('agency_id').notNull(),
  /** 1 normal, 0 abnormal. */
  inspect_status: smallint('inspect_status').notNull(),
  process_content: varchar('process_content', { length: 500 }).notNull().default(''),
  inspector_name: varchar('inspector_name', { length: 50 }).notNull(),
  inspect_time: ts('inspect_time').notNull(),
  img: text('img'),
  creator: ref('creator'),
  create_time: ts('create_time').notNull().defaultNow(),
})

/** Self-tests as devices report them (the detail's detection records). */
export const deviceDetections = pgTable('device_detections', {
  id: id(),
  device_id: ref('device_id').notNull(),
  installation_id: ref('installation_id'),
  agency_id: ref('agency_id').notNull(),
  /** The organisation path at the time, for the scope filter. */
  index_link: text('index_link').notNull(),
  /** -1 user inspection, 0 power-on, 1 standby, 2 user self-test. */
  report_type: smallint('report_type').notNull(),
  /** 1 passed, 0 failed. */
  check_result: smallint('check_result').notNull(),
  fault_codes: text('fault_codes').array().notNull().default([]),
  battery: smallint('battery'),
  check_time: ts('check_time').notNull(),
  create_time: ts('create_time').notNull().defaultNow(),
})

/** Kinds of device condition; each opens an event and closing it moves it to the history. */
export type DeviceEventKind = 'warning' | 'fault' | 'offset' | 'offline'

/** Conditions of devices: open (closed_at NULL, the current list) or closed (history). */
export const deviceEvents = pgTable('device_events', {
  id: id(),
  device_id: ref('device_id').notNull(),
  installation_id: ref('installation_id'),
  agency_id: ref('agency_id').notNull(),
  index_link: text('index_link').notNull(),
  kind: varchar('kind', { length: 16 }).$type<DeviceEventKind>().notNull(),
  /** The warning's event_code or the fault's fault_code; '' for offset and offline. */
  code: varchar('code', { length: 32 }).notNull().default(''),
  event_time: ts('event_time').notNull(),
  closed_at: ts('closed_at'),
  /** The warning's content or the fault's fault_desc. */
  content: varchar('content', { length: 500 }),
  report_type: smallint('report_type'),
  detection_id: ref('detection_id'),
  handler: ref('handler'),
  handler_name: varchar('handler_name', { length: 50 }),
  handle_note: varchar('handle_note', { length: 500 }),
  handle_time: ts('handle_time'),
  install_location: varchar('install_location', { length: 200 }),
  offset_location: varchar('offset_location', { length: 200 }),
  offset_lat: doublePrecision('offset_lat'),
  offset_lon: doublePrecision('offset_lon'),
  /** Metres between the installation and where the device was found. */
  offset_distance: integer('offset_distance'),
  create_time: ts('create_time').notNull().defaultNow(),
})

/** Rescues (uses of a device); ended_at NULL while one is under way. */
export const rescueEvents = pgTable('rescue_events', {
  id: id(),
  device_id: ref('device_id').notNull(),
  installation_id: ref('installation_id'),
  agency_id: ref('agency_id').notNull(),
  index_link: text('index_link').notNull(),
  /** The device's own id of the use. */
  rescue_event_id: varchar('rescue_event_id', { length: 64 }).notNull(),
  event_time: ts('event_time').notNull(),
  ended_at: ts('ended_at'),
  /** GCJ-02. */
  event_lat: doublePrecision('event_lat'),
  event_lon: doublePrecision('event_lon'),
  event_location: varchar('event_location', { length: 200 }),
  ecg_file_url: text('ecg_file_url'),
  create_time: ts('create_time').notNull().defaultNow(),
})

/** The steps of a rescue as the device reported them; deleted with the rescue. */
export const deviceUsageLogs = pgTable('device_usage_logs', {
  id: id(),
  rescue_id: ref('rescue_id').notNull(),
  device_id: ref('device_id').notNull(),
  rescue_event_id: varchar('rescue_event_id', { length: 64 }).notNull(),
  event_desc: varchar('event_desc', { length: 200 }).notNull(),
  event_para: text('event_para'),
  event_time: ts('event_time').notNull(),
  create_time: ts('create_time').notNull().defaultNow(),
})
