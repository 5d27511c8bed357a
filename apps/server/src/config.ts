import path from 'node:path'
import { z } from 'zod'

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

const schema = z.object({
  /** Port for the API, the WebSocket channel and the built console. */
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
  /** Where people reach this server from outside (the links in responders' alert SMS); http://localhost:PORT when unset. */
  PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^/\s]+(\/\S*)?$/, 'must be an http(s) URL such as https://aed.example.cn')
    .optional(),
  HOST: z.string().default('0.0.0.0'),
  /** Folder for PGlite files, uploads and generated secrets. */
  DATA_DIR: z.string().min(1).default('./data'),
  /** When set, a real PostgreSQL server is used instead of PGlite. */
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  /** Signing secret for session tokens; generated and kept in DATA_DIR when absent. */
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Key that encrypts device secrets at rest; generated and kept in DATA_DIR when absent. */
  DEVICE_SECRET_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * Signs the short-lived links to private files (a rescue's ECG); generated and kept in DATA_DIR
   * when absent. Instances behind one address need the same one, as they need the same JWT_SECRET.
   */
  FILE_LINK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  /** Session token lifetime in hours. */
  TOKEN_TTL_HOURS: z.coerce.number().int().min(1).max(720).default(168),
  /** Seed the demo network on the first start of an empty database. */
  SEED_DEMO: bool.default(true),
  /** With the demo: three weeks of its devices' reports run through the engine (off in tests). */
  SEED_HISTORY: bool.default(true),
  /** Folder of the built console; served with a single-page fallback when present. */
  WEB_DIST: z.string().default(path.resolve(import.meta.dirname, '../../web/dist')),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** SMS provider: `local` writes codes and alerts to the server log (and the sms_outbox table). */
  SMS_PROVIDER: z.enum(['local', 'aliyun']).default('local'),
  ALIYUN_SMS_ACCESS_KEY_ID: z.string().optional(),
  ALIYUN_SMS_ACCESS_KEY_SECRET: z.string().optional(),
  ALIYUN_SMS_SIGN_NAME: z.string().optional(),
  ALIYUN_SMS_TEMPLATE_CODE: z.string().optional(),
  /** Aliyun notification template for alert SMS, with one parameter `${content}`. */
  ALIYUN_SMS_NOTIFY_TEMPLATE_CODE: z.string().optional(),
  /** WeChat Open Platform website app; both set switch QR sign-in on. */
  WECHAT_APPID: z.string().optional(),
  WECHAT_SECRET: z.string().optional(),
  /** Where WeChat sends the browser back after a scan (the console's /user/login). */
  WECHAT_REDIRECT_URI: z.string().url().optional(),
  /**
   * Which proxies may name the client in X-Forwarded-For: `true` (any), `false` (none), a number
   * of hops, or a comma list of addresses, CIDR ranges and the names loopback, linklocal, uniquelocal.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .min(1)
    .default('loopback,linklocal,uniquelocal')
    .transform((v): boolean | string | ((address: string, hop: number) => boolean) => {
      if (v === 'true' || v === 'false') return v === 'true'
      const hops = /^\d+$/.test(v) ? Number(v) : null
      return hops === null ? v : (_address, hop) => hop < hops
    }),
  /** SMS codes: per phone a day, per client address a minute and an hour, and sent overall in an hour. */
  SMS_PHONE_DAILY_LIMIT: z.coerce.number().int().min(1).default(10),
  SMS_IP_MINUTE_LIMIT: z.coerce.number().int().min(1).default(5),
  SMS_IP_HOURLY_LIMIT: z.coerce.number().int().min(1).default(30),
  SMS_GLOBAL_HOURLY_LIMIT: z.coerce.number().int().min(1).default(1000),
  /** Failed sign-ins before an account is locked, and for how long. */
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_LOCK_MINUTES: z.coerce.number().int().min(1).default(15),
  /** File storage: `local` keeps files in DATA_DIR/files and serves them at /files/*; `s3` an S3-compatible store. */
  STORAGE_PROVIDER: z.enum(['local', 's3']).default('local'),
  /** Base URL of locally stored files in answers; an absolute https://host/files when other systems fetch them. */
  PUBLIC_FILES_URL: z
    .string()
    .regex(/^(https?:\/\/[^/\s]+)?\/\S*$/, 'must be a path such as /files or an http(s) URL')
    .default('/files'),
  /** S3 API endpoint, e.g. https://oss-cn-hangzhou.aliyuncs.com or https://cos.ap-guangzhou.myqcloud.com. */
  S3_ENDPOINT: z.string().url().optional(),
  S3_REGION: z.string().optional(),
  S3_BUCKET: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Base URL objects are read from: the bucket's public domain or a CDN in front of it. */
  S3_PUBLIC_URL: z.string().url().optional(),
  /** Bucket in the path instead of the host name (MinIO and other self-hosted stores). */
  S3_FORCE_PATH_STYLE: bool.default(false),
  /** Place search and reverse geocoding: `offline` (regions only, no account) or `tencent`. */
  MAP_PROVIDER: z.enum(['offline', 'tencent']).default('offline'),
  /** Tencent Location Service WebService key; its signature secret when the key requires one. */
  TENCENT_MAP_KEY: z.string().optional(),
  TENCENT_MAP_SK: z.string().optional(),
  /** Port of the embedded MQTT broker for devices; 0 turns it off. Unused when MQTT_URL is set. */
  MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(1883),
  /**
   * Port of the embedded broker's MQTT over TLS; 0 turns TLS off. Off by default under the test
   * runner (its servers start on the plain port only, unless a test sets it).
   */
  MQTT_TLS_PORT: z.coerce.number().int().min(0).max(65535).default(8883),
  /**
   * PEM files (paths) of the certificate chain and private key for MQTT over TLS; when absent a
   * self-signed certificate is generated into DATA_DIR/secrets at the first start and kept.
   */
  MQTT_TLS_CERT: z.string().optional(),
  MQTT_TLS_KEY: z.string().optional(),
  /** An external broker (EMQX, Mosquitto, VerneMQ), e.g. mqtts://emqx:8883; no embedded broker then. */
  MQTT_URL: z
    .string()
    .regex(/^(mqtts?|tcp|ssl|wss?):\/\/\S+$/, 'must be an mqtt://, mqtts://, ws:// or wss:// URL')
    .optional(),
  /** The server's client id on the external broker (its persistent session); hostname-pid when absent. */
  MQTT_CLIENT_ID: z.string().trim().min(1).max(64).optional(),
  /** The server's account on the external broker; the hooks allow it to read up and write down topics. */
  MQTT_USERNAME: z.string().min(1).optional(),
  MQTT_PASSWORD: z.string().min(1).optional(),
  /**
   * How devices log in to the external broker: `hooks` (the broker asks the server's HTTP hooks,
   * EMQX) or `mosquitto-dynsec` (the server keeps Mosquitto's dynamic security plugin in step with
   * the device register; MQTT_USERNAME must be a dynsec admin).
   */
  MQTT_AUTH: z.enum(['hooks', 'mosquitto-dynsec']).default('hooks'),
  /** When set, the broker's auth/acl hook calls must carry it in the X-Mqtt-Hook-Secret header. */
  MQTT_HOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /**
   * With PostgreSQL: how long the link watchdog waits for SELECT 1 (asked every second on a
   * connection of its own) before counting a miss; two misses in a row and the link is down
   * (db/link.ts, docs/deploy.md). 0 turns the watchdog off.
   */
  DB_LINK_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(4000),
  /** Open API requests a second per service configuration (refill), and the burst it may spend at once. */
  OPEN_API_RATE: z.coerce.number().positive().default(20),
  OPEN_API_BURST: z.coerce.number().int().min(1).default(60),
  /** Lets push URLs point at loopback and private addresses (tests, a receiver on this machine). */
  WEBHOOK_ALLOW_PRIVATE: bool.default(false),
  /**
   * Development only: the server's clock can be moved forward by a system super administrator
   * (POST /api/v1/dev/clock), which then runs the scheduled jobs once, so a journey sees a
   * certificate expire without waiting for it. Off, the route does not exist.
   */
  DEV_CLOCK: bool.default(false),
  /**
   * Development only: a system super administrator reads the local SMS provider's outbox, texts
   * and alert links included (GET /api/v1/dev/sms), so the simulator's phones can answer their
   * alerts. Needs SMS_PROVIDER=local. Off, the route does not exist.
   */
  DEV_SMS_OUTBOX: bool.default(false),
})

export type Config = z.infer<typeof schema> & { dataDir: string }

/** Reads and validates configuration; throws one error listing every bad setting. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const picked = Object.fromEntries(
    Object.keys(schema.shape).flatMap((k) => (env[k] === undefined || env[k] === '' ? [] : [[k, env[k]]])),
  )
  if (env.VITEST && picked.MQTT_TLS_PORT === undefined) picked.MQTT_TLS_PORT = '0'
  const parsed = schema.safeParse(picked)
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`)
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`)
  }
  const c = parsed.data
  if (c.SMS_PROVIDER === 'aliyun') {
    const missing = (
      [
        'ALIYUN_SMS_ACCESS_KEY_ID',
        'ALIYUN_SMS_ACCESS_KEY_SECRET',
        'ALIYUN_SMS_SIGN_NAME',
        'ALIYUN_SMS_TEMPLATE_CODE',
        'ALIYUN_SMS_NOTIFY_TEMPLATE_CODE',
      ] as const
    ).filter((k) => !c[k])
    if (missing.length)
      throw new ConfigError(`Invalid configuration: SMS_PROVIDER=aliyun needs ${missing.join(', ')}`)
  }
  // Real SMS go to real phones: their links are nobody else's to read.
  if (c.DEV_SMS_OUTBOX && c.SMS_PROVIDER !== 'local') {
    throw new ConfigError('Invalid configuration: DEV_SMS_OUTBOX needs SMS_PROVIDER=local')
  }
  if (c.STORAGE_PROVIDER === 's3') {
    const missing = (
      [
        'S3_ENDPOINT',
        'S3_REGION',
        'S3_BUCKET',
        'S3_ACCESS_KEY_ID',
        'S3_SECRET_ACCESS_KEY',
        'S3_PUBLIC_URL',
      ] as const
    ).filter((k) => !c[k])
    if (missing.length)
      throw new ConfigError(`Invalid configuration: STORAGE_PROVIDER=s3 needs ${missing.join(', ')}`)
  }
  if (c.MAP_PROVIDER === 'tencent' && !c.TENCENT_MAP_KEY) {
    throw new ConfigError('Invalid configuration: MAP_PROVIDER=tencent needs TENCENT_MAP_KEY')
  }
  if (Boolean(c.WECHAT_APPID) !== Boolean(c.WECHAT_SECRET)) {
    throw new ConfigError('Invalid configuration: WECHAT_APPID and WECHAT_SECRET must be set together')
  }
  if (Boolean(c.MQTT_TLS_CERT) !== Boolean(c.MQTT_TLS_KEY)) {
    throw new ConfigError('Invalid configuration: MQTT_TLS_CERT and MQTT_TLS_KEY must be set together')
  }
  // The broker's hooks answer who may connect and publish: with an external broker they must
  // not be open to anyone who can reach the server.
  if (c.MQTT_AUTH === 'mosquitto-dynsec' && !(c.MQTT_URL && c.MQTT_USERNAME && c.MQTT_PASSWORD)) {
    throw new ConfigError(
      'Invalid configuration: MQTT_AUTH=mosquitto-dynsec needs MQTT_URL, MQTT_USERNAME and MQTT_PASSWORD (a dynsec admin account)',
    )
  }
  if (c.MQTT_URL && c.MQTT_AUTH === 'hooks' && !c.MQTT_HOOK_SECRET) {
    throw new ConfigError(
      'Invalid configuration: MQTT_URL needs MQTT_HOOK_SECRET (the broker sends it to the auth/acl hooks)',
    )
  }
  if (c.MQTT_USERNAME?.includes('|')) {
    throw new ConfigError('Invalid configuration: MQTT_USERNAME must not contain | (device usernames do)')
  }
  // npm runs workspace scripts inside the workspace; relative paths mean the caller's folder.
  const base = env.INIT_CWD ?? process.cwd()
  return { ...c, dataDir: path.resolve(base, c.DATA_DIR) }
}

export class ConfigError extends Error {}

/** The configuration of a command-line start: a bad setting ends the process with its message. */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): Config {
  try {
    return loadConfig(env)
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e
    console.error(`\n${e.message}\n`)
    process.exit(1)
  }
}
