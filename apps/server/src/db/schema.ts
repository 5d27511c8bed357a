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
