import path from 'node:path'
import { z } from 'zod'

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes')

const schema = z.object({
  /** Port for the API, the WebSocket channel and the built console. */
  PORT: z.coerce.number().int().min(1).max(65535).default(8080),
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
  /** Session token lifetime in hours. */
  TOKEN_TTL_HOURS: z.coerce.number().int().min(1).max(720).default(168),
  /** Seed the demo network on the first start of an empty database. */
  SEED_DEMO: bool.default(true),
  /** Folder of the built console; served with a single-page fallback when present. */
  WEB_DIST: z.string().default(path.resolve(import.meta.dirname, '../../web/dist')),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** SMS provider: `local` writes codes to the server log and the sms_outbox table. */
  SMS_PROVIDER: z.enum(['local', 'aliyun']).default('local'),
  ALIYUN_SMS_ACCESS_KEY_ID: z.string().optional(),
  ALIYUN_SMS_ACCESS_KEY_SECRET: z.string().optional(),
  ALIYUN_SMS_SIGN_NAME: z.string().optional(),
  ALIYUN_SMS_TEMPLATE_CODE: z.string().optional(),
  /** WeChat Open Platform website app; both set switch QR sign-in on. */
  WECHAT_APPID: z.string().optional(),
  WECHAT_SECRET: z.string().optional(),
  /** Where WeChat sends the browser back after a scan (the console's /user/login). */
  WECHAT_REDIRECT_URI: z.string().url().optional(),
  /** Failed sign-ins before an account is locked, and for how long. */
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_LOCK_MINUTES: z.coerce.number().int().min(1).default(15),
})

export type Config = z.infer<typeof schema> & { dataDir: string }

/** Reads and validates configuration; throws one error listing every bad setting. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const picked = Object.fromEntries(
    Object.keys(schema.shape).flatMap((k) => (env[k] === undefined || env[k] === '' ? [] : [[k, env[k]]])),
  )
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
      ] as const
    ).filter((k) => !c[k])
    if (missing.length)
      throw new ConfigError(`Invalid configuration: SMS_PROVIDER=aliyun needs ${missing.join(', ')}`)
  }
  if (Boolean(c.WECHAT_APPID) !== Boolean(c.WECHAT_SECRET)) {
    throw new ConfigError('Invalid configuration: WECHAT_APPID and WECHAT_SECRET must be set together')
  }
  return { ...c, dataDir: path.resolve(c.DATA_DIR) }
}

export class ConfigError extends Error {}
