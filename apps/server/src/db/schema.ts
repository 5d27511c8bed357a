import type { Permissions } from '@aed/contracts'
import type { CommandName } from '@aed/contracts/device-protocol'
import { sql } from 'drizzle-orm'
import {
  bigint,
  bigserial,
  boolean,
  char,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  unique,
  uniqueIndex,
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
  level: integer('level').notNull().default(1),
  /** Materialised path '/1/5/12/'. */
  index_link: text('index_link').notNull().default(''),
  phone: varchar('phone', { length: 20 }),
  contact_name: varchar('contact_name', { length: 50 }),
  location: varchar('location', { length: 200 }),
  address_code: varchar('address_code', { length: 6 }),
  disabled: boolean('disabled').notNull().default(false),
  time_zone: text('time_zone').notNull().default('Asia/Shanghai'),
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
  permissions: jsonb('permissions').$type<Permissions>().notNull().default({}),
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

/** Every SMS the platform sends and its state; the local provider's outbox. */
export const smsOutbox = pgTable('sms_outbox', {
  id: id(),
  phone: varchar('phone', { length: 11 }).notNull(),
  content: text('content').notNull(),
  create_time: ts('create_time').notNull().defaultNow(),
  kind: varchar('kind', {
    length: 16,
    enum: ['code', 'aid', 'status', 'escalation', 'digest', 'certificate', 'dispatch', 'review'],
  })
    .notNull()
    .default('code'),
  /** One SMS per key however often its sending is retried (unique). */
  idempotency_key: varchar('idempotency_key', { length: 160 }),
  /** pending until the provider accepted it. */
  status: varchar('status', { length: 10, enum: ['pending', 'sent', 'failed'] })
    .notNull()
    .default('sent'),
  provider: varchar('provider', { length: 16 }),
  attempts: integer('attempts').notNull().default(0),
  /** Not retried before this (the backoff, or the lease of a send under way). */
  available_at: ts('available_at').notNull().defaultNow(),
  sent_at: ts('sent_at'),
  last_error: text('last_error'),
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

export const serviceConfigs = pgTable(
  'app_service_configs',
  {
    id: id(),
    agency_id: ref('agency_id').notNull(),
    /** Service keys (APP_SERVICES in contracts). */
    service: jsonb('service').$type<string[]>().notNull().default([]),
    /** 1 enabled, 0 disabled. */
    state: smallint('state').notNull().default(1),
    secret: varchar('secret', { length: 64 }).notNull(),
    access_token: varchar('access_token', { length: 96 }).notNull(),
    apply_time: ts('apply_time').notNull().defaultNow(),
    creator: ref('creator'),
    create_time: ts('create_time').notNull().defaultNow(),
    update_time: ts('update_time').notNull().defaultNow(),
    /** The credentials before the last regeneration, still accepted until prev_until (24 h). */
    prev_secret: varchar('prev_secret', { length: 64 }),
    prev_access_token: varchar('prev_access_token', { length: 96 }),
    prev_until: ts('prev_until'),
    /** Webhook endpoint (event_push, device_data_push); null: none. */
    push_url: varchar('push_url', { length: 500 }),
    /** Standard Webhooks secret, whsec_ and base64. */
    push_secret: varchar('push_secret', { length: 100 }),
    /** gone (HTTP 410) or failing (a day of failures): deliveries stop until enabled again. */
    push_disabled_reason: varchar('push_disabled_reason', { length: 10, enum: ['gone', 'failing'] }),
    push_disabled_at: ts('push_disabled_at'),
  },
  (t) => [
    uniqueIndex('app_service_configs_token_idx').on(t.access_token),
    index('app_service_configs_prev_token_idx')
      .on(t.prev_access_token)
      .where(sql`${t.prev_access_token} IS NOT NULL`),
  ],
)

/** Integrator request nonces, each accepted once per configuration. */
export const openApiNonces = pgTable(
  'open_api_nonces',
  {
    config_id: ref('config_id').notNull(),
    nonce: varchar('nonce', { length: 64 }).notNull(),
    seen_at: ts('seen_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.config_id, t.nonce] })],
)

/** The open API's request limit per configuration (a token bucket shared by every instance). */
export const openApiBuckets = pgTable('open_api_buckets', {
  config_id: ref('config_id').primaryKey(),
  tokens: doublePrecision('tokens').notNull(),
  updated_at: ts('updated_at').notNull(),
})

/** One webhook delivery: an event for one configuration's endpoint, with its last attempt. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    config_id: ref('config_id')
      .notNull()
      .references(() => serviceConfigs.id, { onDelete: 'cascade' }),
    /** WEBHOOK_EVENTS key. */
    event: varchar('event', { length: 40 }).notNull(),
    /** The outbox row's dedupe key: one delivery per event and endpoint. */
    event_key: varchar('event_key', { length: 160 }).notNull(),
    event_time: ts('event_time').notNull(),
    /** The body sent: type, timestamp, data. */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    state: varchar('state', { length: 10, enum: ['pending', 'delivered', 'failed', 'cancelled'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    /** Not tried before this time (the backoff). */
    next_at: ts('next_at').notNull(),
    /** An instance is sending it until then (a crash lets it go again after). */
    leased_until: ts('leased_until'),
    last_attempt_at: ts('last_attempt_at'),
    /** Its first failed attempt since written or resent: failing a day disables the endpoint. */
    first_failed_at: ts('first_failed_at'),
    last_status: smallint('last_status'),
    last_error: text('last_error'),
    last_duration_ms: integer('last_duration_ms'),
    delivered_at: ts('delivered_at'),
    create_time: ts('create_time').notNull().defaultNow(),
  },
  (t) => [
    unique('webhook_deliveries_config_id_event_key_key').on(t.config_id, t.event_key),
    index('webhook_deliveries_pending_idx').on(t.config_id, t.id).where(sql`${t.state} = 'pending'`),
    index('webhook_deliveries_log_idx').on(t.config_id, t.id.desc()),
    index('webhook_deliveries_done_idx').on(t.create_time).where(sql`${t.state} <> 'pending'`),
  ],
)

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

/** Nonces of signed device requests, kept 30 minutes to refuse replays (plugins/auth/device.ts). */
export const deviceNonces = pgTable(
  'device_nonces',
  {
    device_sn: varchar('device_sn', { length: 64 }).notNull(),
    nonce: varchar('nonce', { length: 64 }).notNull(),
    seen_at: ts('seen_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.device_sn, t.nonce] })],
)

/** Every device made (the factory list); `installation_id` set while it is registered at a site. */
export const devices = pgTable(
  'devices',
  {
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
    /** Would this AED work now, as the engine judges it. */
    readiness: varchar('readiness', { length: 10, enum: ['ready', 'not_ready', 'unknown'] })
      .notNull()
      .default('unknown'),
    /** Why not ready or unknown (READINESS_REASONS of the contracts); empty when ready. */
    readiness_reasons: text('readiness_reasons').array().notNull().default(['never_reported']),
    /** The last self-test that passed. */
    last_pass_at: ts('last_pass_at'),
  },
  (t) => [
    index('devices_update_idx').on(t.update_time).where(sql`${t.deleted_at} IS NULL`),
    index('devices_deleted_idx').on(t.deleted_at).where(sql`${t.deleted_at} IS NOT NULL`),
  ],
)

/** A site where a device is installed (register_code), with its place, people, hours and expiry dates. */
export const installations = pgTable(
  'installations',
  {
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
    /** The installed device's status, copied by triggers (never written by the code); null: no live device. */
    device_status: smallint('device_status'),
    /** The installed device's battery level, copied with device_status. */
    device_battery: smallint('device_battery'),
  },
  (t) => [
    index('installations_update_idx')
      .on(t.update_time)
      .where(sql`${t.removed_at} IS NULL AND ${t.device_id} IS NOT NULL`),
    index('installations_removed_idx').on(t.removed_at).where(sql`${t.removed_at} IS NOT NULL`),
    // The rescue list's region, removed installations too (0027).
    index('installations_region_idx').on(t.address_code.op('text_pattern_ops'), t.id),
  ],
)

/** The change record of an installation: register 0, change 1, move 2, replace 3, delete 5. */
export const installationChanges = pgTable(
  'installation_changes',
  {
    id: id(),
    installation_id: ref('installation_id').notNull(),
    update_type: smallint('update_type').notNull(),
    update_field: text('update_field').notNull().default(''),
    old_device_sn: varchar('old_device_sn', { length: 32 }),
    updator: ref('updator'),
    updator_name: varchar('updator_name', { length: 50 }).notNull(),
    update_time: ts('update_time').notNull().defaultNow(),
  },
  // The open API's status feed: which installation a device was uninstalled from (0023).
  (t) => [index('installation_changes_deleted_sn_idx').on(t.old_device_sn).where(sql`${t.update_type} = 5`)],
)

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
  /** Up to two photos' URLs (uploaded through the files endpoint). */
  imgs: jsonb('imgs').$type<string[]>().notNull().default([]),
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
export const deviceEvents = pgTable(
  'device_events',
  {
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
  },
  (t) => [
    index('device_events_changed_idx').on(
      sql`(greatest(${t.event_time}, ${t.closed_at}, ${t.handle_time}))`,
      t.id,
    ),
  ],
)

/** Rescues (uses of a device); ended_at NULL while one is under way. */
export const rescueEvents = pgTable(
  'rescue_events',
  {
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
    /** The cabinet the AED came from (its bound cabinet when the rescue started). */
    cabinet_id: ref('cabinet_id'),
    /** The door opening the AED left through, when one matched. */
    cabinet_door_event_id: ref('cabinet_door_event_id'),
  },
  // The rescue list's newest-first walk (0027); the rest of its indexes are only in the migrations.
  (t) => [index('rescue_events_time_idx').on(t.event_time.desc(), t.id.desc())],
)

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

// The device gateway and status engine (0010, 0017), alerting (0012) and rescue cabinets (0013).
// Their foreign keys, unique constraints and unique and partial indexes are declared below as far
// as Drizzle can express them; a check constraint is a varchar's `enum` (its IN list) or noted in
// the docs. The tables above declare no keys but their primary keys: the rest is only in the
// migrations. db/schema.test.ts holds every table here to the migrated database.

/** Who sent a device message or is sent a command: an AED (devices.id) or a cabinet (cabinets.id). */
export type SenderKind = 'aed' | 'cabinet'
const SENDER_KINDS: [SenderKind, ...SenderKind[]] = ['aed', 'cabinet']

/** The engine's order and deadline of a sender, the same for AEDs and cabinets (new builders each call). */
function senderStateColumns() {
  return {
    /** The newest applied (boot, seq): an older message is stored, never applied over it. */
    last_boot: integer('last_boot').notNull().default(0),
    last_seq: bigint('last_seq', { mode: 'number' }).notNull().default(-1),
    last_seen_at: ts('last_seen_at').notNull(),
    /** Declared by `hello`; null: the model's or the default interval. */
    report_interval_s: integer('report_interval_s'),
    /** Offline when this passes without a message (the sweep); null while offline. */
    next_deadline_at: ts('next_deadline_at'),
    offline: boolean('offline').notNull().default(false),
  }
}

/** How often a `hello` declared a new epoch of (boot, seq) (the counters reset), and when last. */
function counterResetColumns() {
  return {
    counter_resets: integer('counter_resets').notNull().default(0),
    counter_reset_at: ts('counter_reset_at'),
  }
}

/** What the engine keeps of each AED that ever reported, written on every message. */
export const deviceStates = pgTable(
  'device_states',
  {
    device_id: ref('device_id')
      .primaryKey()
      .references(() => devices.id),
    ...senderStateColumns(),
    rssi: smallint('rssi'),
    /** The latest location's positioning type (gps, lbs, wifi) and heartbeat's cable voltage (volts). */
    positioning_type: varchar('positioning_type', { length: 8 }),
    cable_voltage: real('cable_voltage'),
    /** The rescue under way (no offsets raised meanwhile), ended after a quiet hour. */
    rescue_id: ref('rescue_id').references(() => rescueEvents.id, { onDelete: 'set null' }),
    /** The rescue's last step. */
    rescue_last_at: ts('rescue_last_at'),
    /** Consecutive GNSS fixes beyond the offset threshold. */
    offset_streak: smallint('offset_streak').notNull().default(0),
    /** The last of those fixes. */
    last_fix: jsonb('last_fix'),
    update_time: ts('update_time').notNull().defaultNow(),
    ...counterResetColumns(),
  },
  (t) => [
    index('device_states_deadline_idx').on(t.next_deadline_at).where(sql`NOT ${t.offline}`),
    index('device_states_update_idx').on(t.update_time),
  ],
)

/** Every message a device sent, as received, once per (sender, msg_id); processed_at null until applied. */
export const deviceInbox = pgTable(
  'device_inbox',
  {
    id: id(),
    sender_kind: varchar('sender_kind', { length: 8, enum: SENDER_KINDS }).notNull().default('aed'),
    /** devices.id or cabinets.id, by sender_kind. */
    sender_id: ref('sender_id').notNull(),
    /** The device's own id of the message. */
    msg_id: varchar('msg_id', { length: 64 }).notNull(),
    /** The message type (hello, heartbeat, selftest ...). */
    type: varchar('type', { length: 32 }).notNull(),
    boot: integer('boot').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    /** The device clock as sent. */
    device_ts: ts('device_ts'),
    /** The time used: device_ts, or the receive time when the clock was off (ts_flagged). */
    event_time: ts('event_time').notNull(),
    ts_flagged: boolean('ts_flagged').notNull().default(false),
    received_at: ts('received_at').notNull(),
    transport: varchar('transport', { length: 8, enum: ['mqtt', 'https'] }).notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    processed_at: ts('processed_at'),
    /** stale: older than the state; coalesced: changed nothing; ignored: unknown type; failed: retried. */
    outcome: varchar('outcome', {
      length: 10,
      enum: ['applied', 'stale', 'coalesced', 'ignored', 'failed', 'dead'],
    }),
    /** Why it failed. */
    error: text('error'),
    attempts: smallint('attempts').notNull().default(0),
  },
  (t) => [
    uniqueIndex('device_inbox_msg_idx').on(t.sender_kind, t.sender_id, t.msg_id),
    index('device_inbox_pending_idx')
      .on(t.id)
      .where(sql`${t.processed_at} IS NULL OR ${t.outcome} = 'failed'`),
  ],
)

/** What must be told, written in the transaction that found it; dispatchers take, retry and mark it done. */
export const outbox = pgTable(
  'outbox',
  {
    id: id(),
    /** live (a push on the live channel), message (the message centre), sms, webhook. */
    topic: varchar('topic', {
      length: 16,
      enum: ['live', 'message', 'sms', 'webhook', 'dispatch'],
    }).notNull(),
    /** Makes a repeated write (a retried transaction) one row. */
    dedupe_key: varchar('dedupe_key', { length: 160 }).notNull().unique('outbox_dedupe_key_key'),
    /** Who may hear of it: the device's organisation and its path (scope of live pushes). */
    agency_id: ref('agency_id').references(() => agencies.id),
    index_link: text('index_link'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    create_time: ts('create_time').notNull().defaultNow(),
    /** Not taken before this (the retry backoff). */
    available_at: ts('available_at').notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    done_at: ts('done_at'),
    last_error: text('last_error'),
  },
  (t) => [index('outbox_pending_idx').on(t.topic, t.available_at, t.id).where(sql`${t.done_at} IS NULL`)],
)

/** Commands to devices, sent on MQTT or in the next HTTPS answer, answered by `ack`, else expired. */
export const deviceCommands = pgTable(
  'device_commands',
  {
    id: id(),
    /** The command's id on the wire. */
    cmd_id: varchar('cmd_id', { length: 40 }).notNull().unique('device_commands_cmd_id_key'),
    sender_kind: varchar('sender_kind', { length: 8, enum: SENDER_KINDS }).notNull().default('aed'),
    /** The device it is for: devices.id or cabinets.id, by sender_kind. */
    sender_id: ref('sender_id').notNull(),
    name: varchar('name', { length: 16 }).$type<CommandName>().notNull(),
    args: jsonb('args').$type<Record<string, unknown>>().notNull().default({}),
    state: varchar('state', { length: 8, enum: ['pending', 'sent', 'done', 'failed', 'expired'] })
      .notNull()
      .default('pending'),
    creator: ref('creator'),
    creator_name: varchar('creator_name', { length: 50 }),
    create_time: ts('create_time').notNull().defaultNow(),
    expires_at: ts('expires_at').notNull(),
    sent_at: ts('sent_at'),
    /** When the device answered. */
    ack_time: ts('ack_time'),
    /** The device's reason when it failed. */
    error: varchar('error', { length: 200 }),
  },
  (t) => [
    index('device_commands_open_idx')
      .on(t.sender_kind, t.sender_id)
      .where(sql`${t.state} IN ('pending', 'sent')`),
  ],
)

/** Files devices upload (the ECG after a rescue), kept in the storage provider. */
export const deviceFiles = pgTable('device_files', {
  id: id(),
  /** The file's id on the wire. */
  file_id: varchar('file_id', { length: 64 }).notNull().unique('device_files_file_id_key'),
  /** No check in the database, unlike the inbox's and the commands'. */
  sender_kind: varchar('sender_kind', { length: 8, enum: SENDER_KINDS }).notNull().default('aed'),
  sender_id: ref('sender_id').notNull(),
  kind: varchar('kind', { length: 8, enum: ['ecg'] }).notNull(),
  /** The device's own id of the rescue the file belongs to. */
  rescue_event_id: varchar('rescue_event_id', { length: 64 }).notNull(),
  /** Hex SHA-256 of the content. */
  sha256: char('sha256', { length: 64 }).notNull(),
  /** Bytes. */
  size: integer('size').notNull(),
  url: text('url').notNull(),
  create_time: ts('create_time').notNull().defaultNow(),
})

/** Registered devices per organisation (the device list's total), kept by triggers on installations. */
export const registeredDeviceCounts = pgTable('registered_device_counts', {
  agency_id: ref('agency_id').primaryKey(),
  n: integer('n').notNull(),
})

/** The message centre: seen by every member whose scope holds index_link, confirmed once for all. */
export const messages = pgTable(
  'messages',
  {
    id: id(),
    /** 1 call, 2 rescue, 3 location offset, 4 cabinet door open, 5 unapplied device message, 6 webhook endpoint disabled (check 1-6). */
    msg_type: smallint('msg_type').notNull(),
    /** Check 1-6: a call, rescue_events, device_events, cabinet_door_events, device_inbox, webhook_deliveries (event_id's). */
    event_type: smallint('event_type').notNull(),
    /** The id of that event's row. */
    event_id: ref('event_id').notNull(),
    device_id: ref('device_id').references(() => devices.id),
    device_sn: varchar('device_sn', { length: 32 }),
    cabinet_sn: varchar('cabinet_sn', { length: 32 }),
    /** The installation's (or cabinet's) address at the time. */
    location: varchar('location', { length: 200 }),
    agency_id: ref('agency_id')
      .notNull()
      .references(() => agencies.id),
    index_link: text('index_link').notNull(),
    msg_time: ts('msg_time').notNull(),
    /** Facts the title is built from in the reader's language (offset distance in metres ...). */
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    /** 1 confirmed, 0 not. */
    is_confirm: smallint('is_confirm').notNull().default(0),
    confirmed_by: ref('confirmed_by').references(() => members.id, { onDelete: 'set null' }),
    confirmed_name: varchar('confirmed_name', { length: 50 }),
    confirm_time: ts('confirm_time'),
    /** Escalation steps taken so far (alarms, types 2 and 4). */
    escalation_level: smallint('escalation_level').notNull().default(0),
    /** When the next step is due; null when none is (confirmed, not an alarm, top of the tree). */
    escalate_at: ts('escalate_at'),
    create_time: ts('create_time').notNull().defaultNow(),
  },
  (t) => [
    unique('messages_msg_type_event_id_key').on(t.msg_type, t.event_id),
    index('messages_unconfirmed_idx').on(t.index_link.op('text_pattern_ops')).where(sql`${t.is_confirm} = 0`),
    index('messages_escalate_idx').on(t.escalate_at).where(sql`${t.escalate_at} IS NOT NULL`),
  ],
)

/** Each escalation step of a message: whose administrators were told, how many SMS went. */
export const messageEscalations = pgTable(
  'message_escalations',
  {
    id: id(),
    message_id: ref('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    /** The step, from 1 (check). */
    level: smallint('level').notNull(),
    /** The organisation whose administrators were told. */
    agency_id: ref('agency_id')
      .notNull()
      .references(() => agencies.id),
    agency_name: varchar('agency_name', { length: 100 }).notNull(),
    /** How many SMS went. */
    recipients: integer('recipients').notNull().default(0),
    create_time: ts('create_time').notNull(),
  },
  (t) => [unique('message_escalations_message_id_level_key').on(t.message_id, t.level)],
)

/** Every push of the live channel (id: the push's id), kept a day for consoles that reconnect. */
export const livePushes = pgTable('live_pushes', {
  id: id(),
  data_type: smallint('data_type').notNull(),
  agency_id: ref('agency_id'),
  /** Who may hear it. */
  index_link: text('index_link').notNull(),
  /** The push's facts; each console's frame is built from them by the feature's presenter. */
  data: jsonb('data').$type<Record<string, unknown>>().notNull(),
  create_time: ts('create_time').notNull().defaultNow(),
})

/** Alert SMS lines held until due, then sent alone or with the recipient's other due lines as one digest. */
export const smsAlerts = pgTable(
  'sms_alerts',
  {
    id: id(),
    kind: varchar('kind', { length: 16, enum: ['aid', 'status', 'escalation'] }).notNull(),
    /** aid:<rescue>:<phone>, status:<device>:<kind>:<code>:<day>, esc:<message>:<level>:<phone>. */
    dedupe_key: varchar('dedupe_key', { length: 160 }).notNull().unique('sms_alerts_dedupe_key_key'),
    phone: varchar('phone', { length: 11 }).notNull(),
    agency_id: ref('agency_id').references(() => agencies.id),
    device_id: ref('device_id').references(() => devices.id),
    message_id: ref('message_id').references(() => messages.id, { onDelete: 'set null' }),
    line: varchar('line', { length: 300 }).notNull(),
    /** Held until then (the organisation's window and weekdays). */
    due_at: ts('due_at').notNull(),
    /** The SMS that carried it; null while waiting. */
    sms_id: ref('sms_id').references(() => smsOutbox.id),
    create_time: ts('create_time').notNull().defaultNow(),
  },
  (t) => [
    index('sms_alerts_due_idx').on(t.due_at, t.phone).where(sql`${t.sms_id} IS NULL`),
    index('sms_alerts_message_idx').on(t.message_id).where(sql`${t.message_id} IS NOT NULL`),
  ],
)

/** Rescue cabinets: boxes in public places that hold an AED, reporting over the AEDs' protocol. */
export const cabinets = pgTable(
  'cabinets',
  {
    id: id(),
    /** Unique among live cabinets and never a live AED's serial (0018's triggers). */
    cabinet_sn: varchar('cabinet_sn', { length: 32 }).notNull(),
    /** The owning organisation; scope is its subtree. */
    agency_id: ref('agency_id')
      .notNull()
      .references(() => agencies.id),
    /** The cabinet secret, sealed (lib/sealed.ts); the previous one works until prev_secret_until. */
    secret_enc: text('secret_enc').notNull(),
    prev_secret_enc: text('prev_secret_enc'),
    prev_secret_until: ts('prev_secret_until'),
    /** The AED in it; one AED sits in at most one live cabinet. */
    device_id: ref('device_id').references(() => devices.id),
    /** From its last report: 1 open, 0 closed. */
    door_status: smallint('door_status'),
    /** 0-100. */
    battery_power: smallint('battery_power'),
    fw_version: varchar('fw_version', { length: 32 }),
    /** GCJ-02, converted from the report's WGS-84. */
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
    altitude: doublePrecision('altitude'),
    location: varchar('location', { length: 200 }),
    /** Whether the AED is inside, as reported. */
    aed_present: boolean('aed_present'),
    /** When it last reported. */
    data_upload_time: ts('data_upload_time'),
    creator: ref('creator'),
    create_time: ts('create_time').notNull().defaultNow(),
    update_time: ts('update_time').notNull().defaultNow(),
    deleted_at: ts('deleted_at'),
  },
  (t) => [
    uniqueIndex('cabinets_sn_live_idx').on(t.cabinet_sn).where(sql`${t.deleted_at} IS NULL`),
    uniqueIndex('cabinets_device_idx')
      .on(t.device_id)
      .where(sql`${t.device_id} IS NOT NULL AND ${t.deleted_at} IS NULL`),
    index('cabinets_agency_idx').on(t.agency_id, t.create_time.desc()).where(sql`${t.deleted_at} IS NULL`),
  ],
)

/** What the engine keeps of a cabinet that ever reported (as device_states for AEDs). */
export const cabinetStates = pgTable(
  'cabinet_states',
  {
    cabinet_id: ref('cabinet_id')
      .primaryKey()
      .references(() => cabinets.id),
    ...senderStateColumns(),
    update_time: ts('update_time').notNull().defaultNow(),
    ...counterResetColumns(),
  },
  (t) => [index('cabinet_states_deadline_idx').on(t.next_deadline_at).where(sql`NOT ${t.offline}`)],
)

/** A cabinet's self-check records: every cabinet_status and door report. */
export const cabinetRecords = pgTable('cabinet_records', {
  id: id(),
  cabinet_id: ref('cabinet_id')
    .notNull()
    .references(() => cabinets.id),
  /** The message type: cabinet_status or door. */
  upload_data_type: varchar('upload_data_type', { length: 16 }).notNull(),
  /** The AED bound at the time. */
  device_sn: varchar('device_sn', { length: 32 }),
  device_model: varchar('device_model', { length: 16 }),
  door_status: smallint('door_status'),
  battery_power: smallint('battery_power'),
  fw_version: varchar('fw_version', { length: 32 }),
  lat: doublePrecision('lat'),
  lon: doublePrecision('lon'),
  location: varchar('location', { length: 200 }),
  altitude: doublePrecision('altitude'),
  aed_present: boolean('aed_present'),
  /** When it was reported. */
  update_time: ts('update_time').notNull(),
})

/** A cabinet's bind records, with who and for which AED. */
export const cabinetBinds = pgTable('cabinet_binds', {
  id: id(),
  cabinet_id: ref('cabinet_id')
    .notNull()
    .references(() => cabinets.id),
  /** 1 assignment, 2 bind, 3 unbind. */
  action: smallint('action').notNull(),
  device_id: ref('device_id').references(() => devices.id),
  device_sn: varchar('device_sn', { length: 32 }),
  device_model: varchar('device_model', { length: 16 }),
  agency_id: ref('agency_id')
    .notNull()
    .references(() => agencies.id),
  agency_name: varchar('agency_name', { length: 100 }).notNull(),
  operator_id: ref('operator_id'),
  operator: varchar('operator', { length: 50 }).notNull(),
  operate_time: ts('operate_time').notNull().defaultNow(),
})

/** A cabinet's door opened until it closed, with the AED bound then and when it left and came back. */
export const cabinetDoorEvents = pgTable(
  'cabinet_door_events',
  {
    id: id(),
    cabinet_id: ref('cabinet_id')
      .notNull()
      .references(() => cabinets.id),
    agency_id: ref('agency_id')
      .notNull()
      .references(() => agencies.id),
    /** The cabinet's organisation path: who hears of it. */
    index_link: text('index_link').notNull(),
    /** The AED bound at the time. */
    device_id: ref('device_id').references(() => devices.id),
    location: varchar('location', { length: 200 }),
    opened_at: ts('opened_at').notNull(),
    closed_at: ts('closed_at'),
    aed_left_at: ts('aed_left_at'),
    aed_back_at: ts('aed_back_at'),
    create_time: ts('create_time').notNull().defaultNow(),
    /** The AED that left is due back by then (closed + 2 hours). */
    return_due_at: ts('return_due_at'),
    /** Stamped by the sweep when it was not back in time: the AED's 'not_returned' warning. */
    not_returned_at: ts('not_returned_at'),
  },
  (t) => [
    uniqueIndex('cabinet_door_events_open_idx').on(t.cabinet_id).where(sql`${t.closed_at} IS NULL`),
    index('cabinet_door_events_due_idx')
      .on(t.return_due_at)
      .where(
        sql`${t.return_due_at} IS NOT NULL AND ${t.not_returned_at} IS NULL AND ${t.aed_back_at} IS NULL`,
      ),
    index('cabinet_door_events_not_returned_idx')
      .on(t.device_id)
      .where(sql`${t.not_returned_at} IS NOT NULL AND ${t.aed_back_at} IS NULL`),
  ],
)

/** A first-aid responder (急救人员): a person (account) in an organisation's register. */
export const responders = pgTable(
  'responders',
  {
    id: id(),
    /** The person: profile and resident place are the account's. One entry per account. */
    account_id: ref('account_id')
      .notNull()
      .references(() => accounts.id),
    agency_id: ref('agency_id')
      .notNull()
      .references(() => agencies.id),
    /** 0 non-professional, 1 professional. */
    aid_aptitude: smallint('aid_aptitude').notNull(),
    certificate_num: varchar('certificate_num', { length: 50 }),
    /** The certificate is valid through this date (YYYY-MM-DD). */
    certificate_expire: date('certificate_expire', { mode: 'string' }),
    certificate_img: varchar('certificate_img', { length: 500 }),
    /** 1: bound to the organisation's devices. */
    status: smallint('status').notNull().default(0),
    /** Never alerted while paused. */
    paused: boolean('paused').notNull().default(false),
    pause_reason: varchar('pause_reason', { length: 100 }),
    paused_at: ts('paused_at'),
    creator: ref('creator'),
    create_time: ts('create_time').notNull().defaultNow(),
    updator: ref('updator'),
    update_time: ts('update_time').notNull().defaultNow(),
    /** The last position the responder's alert page shared (GCJ-02), used for 30 minutes. */
    last_lat: doublePrecision('last_lat'),
    last_lon: doublePrecision('last_lon'),
    located_at: ts('located_at'),
    /** An approved public volunteer (公共志愿者), of the system organisation; alerted by the backend switch. */
    volunteer: boolean('volunteer').notNull().default(false),
  },
  (t) => [
    index('responders_volunteer_idx').on(t.account_id).where(sql`${t.volunteer}`),
    uniqueIndex('responders_account_idx').on(t.account_id),
    index('responders_agency_idx').on(t.agency_id, t.id.desc()),
    index('responders_cert_num_idx').on(t.certificate_num).where(sql`${t.certificate_num} IS NOT NULL`),
    index('responders_cert_expire_idx').on(t.certificate_expire).where(sql`${t.aid_aptitude} = 1`),
    // Dispatch's candidates by their shared position (0029).
    index('responders_position_idx')
      .using('gist', sql`ll_to_earth(${t.last_lat}, ${t.last_lon})`)
      .where(sql`${t.located_at} IS NOT NULL`),
  ],
)

/** A responder's history (who did what, when); the system's certificate notices once per expiry. */
export const responderChanges = pgTable(
  'responder_changes',
  {
    id: id(),
    responder_id: ref('responder_id')
      .notNull()
      .references(() => responders.id, { onDelete: 'cascade' }),
    /** One of RESPONDER_CHANGE_KINDS. */
    kind: varchar('kind', { length: 20 }).notNull(),
    /** The facts the line is written from in the reader's language. */
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    /** The certificate expiry a system notice was about. */
    cert_expire: date('cert_expire', { mode: 'string' }),
    operator_id: ref('operator_id'),
    operator: varchar('operator', { length: 50 }),
    create_time: ts('create_time').notNull().defaultNow(),
  },
  (t) => [
    index('responder_changes_responder_idx').on(t.responder_id, t.id.desc()),
    uniqueIndex('responder_changes_notice_idx')
      .on(t.responder_id, t.kind, t.cert_expire)
      .where(sql`${t.kind} IN ('reminded_30', 'reminded_7', 'expired')`),
  ],
)

/** An emergency call (呼救事件): recorded by a member or an integrator, open until closed. */
export const callEvents = pgTable(
  'call_events',
  {
    id: id(),
    agency_id: ref('agency_id')
      .notNull()
      .references(() => agencies.id),
    index_link: text('index_link').notNull(),
    source: varchar('source', { length: 10, enum: ['console', 'open_api'] }).notNull(),
    /** The integrator's service configuration (open API calls). */
    config_id: ref('config_id').references(() => serviceConfigs.id, { onDelete: 'set null' }),
    /** The integrator's own id: the same id again is the same call. */
    external_id: varchar('external_id', { length: 64 }),
    member_id: ref('member_id').references(() => members.id, { onDelete: 'set null' }),
    /** Who recorded it: the member's name or the integrator's organisation. */
    recorder: varchar('recorder', { length: 100 }),
    phone: varchar('phone', { length: 20 }).notNull(),
    /** GCJ-02. */
    lat: doublePrecision('lat').notNull(),
    lon: doublePrecision('lon').notNull(),
    location: varchar('location', { length: 200 }).notNull(),
    address_code: varchar('address_code', { length: 6 }),
    description: varchar('description', { length: 500 }),
    call_time: ts('call_time').notNull(),
    /** 1 open, 0 closed. */
    status: smallint('status').notNull().default(1),
    outcome: varchar('outcome', { length: 16, enum: ['aed_used', 'no_aed_needed', 'cancelled'] }),
    closed_at: ts('closed_at'),
    close_reason: varchar('close_reason', { length: 12, enum: ['integrator', 'member', 'timeout'] }),
    closed_by: ref('closed_by'),
    remark: varchar('remark', { length: 200 }),
    /** When it closes by itself if still open. */
    close_due_at: ts('close_due_at'),
    /** The rescue that answered it. */
    rescue_id: ref('rescue_id').references(() => rescueEvents.id, { onDelete: 'set null' }),
    /** Metres from the call to where the rescue started. */
    rescue_distance: integer('rescue_distance'),
    create_time: ts('create_time').notNull().defaultNow(),
    /** Ready AEDs within 500 m when the call came in (the coverage page). */
    ready_aeds_500m: integer('ready_aeds_500m'),
  },
  (t) => [
    uniqueIndex('call_events_external_idx')
      .on(t.config_id, t.external_id)
      .where(sql`${t.external_id} IS NOT NULL`),
    index('call_events_due_idx').on(t.close_due_at).where(sql`${t.status} = 1`),
    index('call_events_time_idx').on(t.call_time),
    uniqueIndex('call_events_rescue_idx').on(t.rescue_id).where(sql`${t.rescue_id} IS NOT NULL`),
    // The list's phone filter, any part of the number (0027).
    index('call_events_phone_idx').using('gin', t.phone.op('gin_trgm_ops')),
  ],
)

/** A call's (or an unexplained rescue's) dispatch: phases and alerts as stored deadlines. */
export const dispatches = pgTable(
  'dispatches',
  {
    id: id(),
    call_id: ref('call_id')
      .unique('dispatches_call_id_key')
      .references(() => callEvents.id, { onDelete: 'cascade' }),
    rescue_id: ref('rescue_id')
      .unique('dispatches_rescue_id_key')
      .references(() => rescueEvents.id, { onDelete: 'cascade' }),
    agency_id: ref('agency_id')
      .notNull()
      .references(() => agencies.id),
    index_link: text('index_link').notNull(),
    /** Where help is needed (GCJ-02). */
    lat: doublePrecision('lat').notNull(),
    lon: doublePrecision('lon').notNull(),
    state: varchar('state', { length: 8, enum: ['running', 'enough', 'closed'] })
      .notNull()
      .default('running'),
    phase: smallint('phase').notNull().default(0),
    next_phase_at: ts('next_phase_at'),
    /** The organisation's dispatch settings when it started. */
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull(),
    create_time: ts('create_time').notNull().defaultNow(),
    closed_at: ts('closed_at'),
  },
  (t) => [
    index('dispatches_phase_idx').on(t.next_phase_at).where(sql`${t.state} = 'running'`),
    index('dispatches_open_idx').on(t.id).where(sql`${t.state} <> 'closed'`),
  ],
)

/** One responder alerted for a dispatch: role, the AED to fetch, the answer window, the answer. */
export const dispatchAlerts = pgTable(
  'dispatch_alerts',
  {
    id: id(),
    dispatch_id: ref('dispatch_id')
      .notNull()
      .references(() => dispatches.id, { onDelete: 'cascade' }),
    responder_id: ref('responder_id')
      .notNull()
      .references(() => responders.id, { onDelete: 'cascade' }),
    /** SHA-256 (hex) of the link's token. */
    token_hash: char('token_hash', { length: 64 }).notNull().unique('dispatch_alerts_token_hash_key'),
    role: varchar('role', { length: 8, enum: ['patient', 'aed'] }).notNull(),
    device_id: ref('device_id').references(() => devices.id),
    state: varchar('state', {
      length: 12,
      enum: ['alerted', 'accepted', 'declined', 'expired', 'arrived', 'stood_down'],
    })
      .notNull()
      .default('alerted'),
    distance: integer('distance').notNull(),
    eta_s: integer('eta_s').notNull(),
    alerted_at: ts('alerted_at').notNull(),
    answer_due_at: ts('answer_due_at').notNull(),
    answered_at: ts('answered_at'),
    arrived_at: ts('arrived_at'),
    stood_down_at: ts('stood_down_at'),
    unlocked_at: ts('unlocked_at'),
  },
  (t) => [
    unique('dispatch_alerts_dispatch_id_responder_id_key').on(t.dispatch_id, t.responder_id),
    index('dispatch_alerts_due_idx').on(t.answer_due_at).where(sql`${t.state} = 'alerted'`),
    index('dispatch_alerts_responder_idx').on(t.responder_id, t.alerted_at.desc()),
  ],
)

/** A dispatch's steps in order: the call's timeline, the live push and the webhooks read them. */
export const dispatchSteps = pgTable(
  'dispatch_steps',
  {
    id: id(),
    dispatch_id: ref('dispatch_id')
      .notNull()
      .references(() => dispatches.id, { onDelete: 'cascade' }),
    alert_id: ref('alert_id').references(() => dispatchAlerts.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 16 }).notNull(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    time: ts('time').notNull(),
  },
  (t) => [index('dispatch_steps_dispatch_idx').on(t.dispatch_id, t.id)],
)

/** The migration files applied, created by migrate.ts (not by a migration). */
/** Who submitted a review record, its state and the decision (volunteers and third-party AEDs alike). */
function reviewColumns() {
  return {
    submitter_name: varchar('submitter_name', { length: 50 }).notNull(),
    submitter_phone: varchar('submitter_phone', { length: 11 }).notNull(),
    /** 1 in review, 2 approved, 0 rejected. */
    audit_status: smallint('audit_status').notNull().default(1),
    rejected_reason: varchar('rejected_reason', { length: 200 }),
    audit_time: ts('audit_time'),
    auditor_id: ref('auditor_id'),
    auditor: varchar('auditor', { length: 50 }),
    /** The integrator's configuration that sent it (its webhook hears the outcome). */
    config_id: ref('config_id'),
    agency_id: ref('agency_id').references(() => agencies.id),
    /** Possible duplicates found at submission (contracts' duplicateSchema without photos resolved). */
    duplicates: jsonb('duplicates').$type<Record<string, unknown>[]>().notNull().default([]),
    create_time: ts('create_time').notNull().defaultNow(),
    update_time: ts('update_time').notNull().defaultNow(),
  }
}

/** A citizen volunteering as a responder (公共志愿者). */
export const volunteers = pgTable(
  'volunteers',
  {
    id: id(),
    guard_area: varchar('guard_area', { length: 200 }).notNull(),
    has_cert: smallint('has_cert').notNull(),
    cert_img: varchar('cert_img', { length: 500 }),
    /** The guarded area's point (GCJ-02), where dispatch alerts from. */
    lat: doublePrecision('lat'),
    lon: doublePrecision('lon'),
    /** The responder entry approval made (responder_created) or found. */
    responder_id: ref('responder_id').references(() => responders.id, { onDelete: 'set null' }),
    responder_created: boolean('responder_created').notNull().default(false),
    ...reviewColumns(),
  },
  (t) => [
    uniqueIndex('volunteers_in_review_phone_idx').on(t.submitter_phone).where(sql`${t.audit_status} = 1`),
    // INCLUDE (submitter_name) since 0033: the name filter's count and page ids, index only.
    index('volunteers_tab_idx').on(t.audit_status, t.id.desc()),
    index('volunteers_name_trgm_idx').using('gin', t.submitter_name.op('gin_trgm_ops')),
  ],
)

/** An AED someone else owns, reported by a citizen (第三方AED). */
export const thirdPartyAeds = pgTable(
  'third_party_aeds',
  {
    id: id(),
    brand: varchar('brand', { length: 20 }).notNull(),
    location: varchar('location', { length: 200 }).notNull(),
    location_desc: varchar('location_desc', { length: 200 }),
    address_code: varchar('address_code', { length: 6 }),
    lat: doublePrecision('lat').notNull(),
    lon: doublePrecision('lon').notNull(),
    /** One or two site photos. */
    install_imgs: jsonb('install_imgs').$type<string[]>().notNull().default([]),
    device_sn: varchar('device_sn', { length: 64 }),
    ...reviewColumns(),
  },
  (t) => [
    uniqueIndex('third_party_aeds_in_review_phone_idx')
      .on(t.submitter_phone)
      .where(sql`${t.audit_status} = 1`),
    index('third_party_aeds_tab_idx').on(t.audit_status, t.id.desc()),
    index('third_party_aeds_brand_idx').on(t.audit_status, t.brand, t.id.desc()),
    index('third_party_aeds_earth_idx')
      .using('gist', sql`ll_to_earth(${t.lat}, ${t.lon})`)
      .where(sql`${t.audit_status} = 2`),
    index('third_party_aeds_sn_idx')
      .on(t.device_sn)
      .where(sql`${t.device_sn} IS NOT NULL AND ${t.audit_status} = 2`),
    index('third_party_aeds_region_idx').on(t.address_code).where(sql`${t.audit_status} = 2`),
  ],
)

/** 后台配置: the two system-wide switches, one row. */
export const backendConfig = pgTable('backend_config', {
  id: boolean('id').primaryKey().default(true),
  /** 1: dispatch alerts approved public volunteers too. */
  call_event_notify_aid_volunteer: smallint('call_event_notify_aid_volunteer').notNull().default(0),
  /** 1: the nearby answer lists approved third-party AEDs. */
  xcx_display_third_party_aed: smallint('xcx_display_third_party_aed').notNull().default(0),
  updator: varchar('updator', { length: 50 }),
  update_time: ts('update_time'),
})

/** Serials whose Mosquitto dynamic-security accounts must follow the register (MQTT_AUTH=mosquitto-dynsec). */
export const mqttDynsecChanges = pgTable('mqtt_dynsec_changes', {
  sn: varchar('sn', { length: 64 }).primaryKey(),
  /** Sealed secrets that left this serial: their broker accounts are removed. */
  retired_enc: text('retired_enc').array().notNull().default([]),
  /** Raised by every change; a drain removes the row only if it is unchanged. */
  version: bigint('version', { mode: 'number' }).notNull().default(1),
  /** Not before this (retry backoff, a claim's lease, a rotation's overlap end); null: now. */
  due_at: ts('due_at'),
  attempts: integer('attempts').notNull().default(0),
  last_error: text('last_error'),
})

/** The server instances' persistent sessions on an external broker, and who reads each now. */
export const mqttSessions = pgTable(
  'mqtt_sessions',
  {
    client_id: varchar('client_id', { length: 64 }).primaryKey(),
    /** The instance reading it: its owner, or the one that adopted it. */
    holder: varchar('holder', { length: 64 }).notNull(),
    /** Last marked by its holder; long unmarked, a live instance adopts it. */
    seen_at: ts('seen_at').notNull().defaultNow(),
  },
  (t) => [index('mqtt_sessions_seen').on(t.seen_at)],
)

export const schemaMigrations = pgTable('schema_migrations', {
  /** The file name. */
  name: text('name').primaryKey(),
  applied_at: ts('applied_at').notNull().defaultNow(),
})
