import path from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import type { Config } from './config.ts'
import type { AppContext } from './context.ts'
import { type Database, openPglite, openPostgres } from './db/client.ts'
import { createEventBus } from './db/events.ts'
import { migrate } from './db/migrate.ts'
import { outboxHandlers } from './jobs/outbox.ts'
import { OffsetClock, systemClock } from './lib/clock.ts'
import { createFileLinks } from './lib/file-links.ts'
import { createSealer } from './lib/sealed.ts'
import { persistentSecret } from './lib/secrets.ts'
import { createTokenService } from './lib/tokens.ts'
import { senderCredentials } from './modules/gateway/credentials.ts'
import { noDevices } from './plugins/auth/device.ts'
import { offlineMap } from './providers/map/offline-map.ts'
import { tencentMap } from './providers/map/tencent-map.ts'
import { aliyunSms } from './providers/sms/aliyun-sms.ts'
import { localSms } from './providers/sms/local-sms.ts'
import type { SmsProvider } from './providers/sms/sms-provider.ts'
import { diskStorage } from './providers/storage/local-storage.ts'
import { s3Storage } from './providers/storage/s3-storage.ts'
import type { StorageProvider } from './providers/storage/storage-provider.ts'
import { openPlatformWechat } from './providers/wechat/open-platform-wechat.ts'
import { disabledWechat } from './providers/wechat/wechat-provider.ts'
import { isEmpty, seedDemo } from './seed/seed.ts'
import { historyWanted, seedHistory } from './seed/seed-history.ts'

/**
 * Opens the database the configuration names: PostgreSQL by DATABASE_URL, else PGlite in DATA_DIR.
 * A server (`serving`) watches its link to PostgreSQL (DB_LINK_TIMEOUT_MS); one-off tools do not.
 */
export function openDatabase(config: Config, opts: { serving?: boolean } = {}): Promise<Database> {
  if (!config.DATABASE_URL) return openPglite(config.dataDir)
  return openPostgres(config.DATABASE_URL, { linkTimeoutMs: opts.serving ? config.DB_LINK_TIMEOUT_MS : 0 })
}

function smsProvider(config: Config, database: Database, log: FastifyBaseLogger): SmsProvider {
  if (config.SMS_PROVIDER === 'aliyun') {
    return aliyunSms({
      accessKeyId: config.ALIYUN_SMS_ACCESS_KEY_ID!,
      accessKeySecret: config.ALIYUN_SMS_ACCESS_KEY_SECRET!,
      signName: config.ALIYUN_SMS_SIGN_NAME!,
      templateCode: config.ALIYUN_SMS_TEMPLATE_CODE!,
      notifyTemplateCode: config.ALIYUN_SMS_NOTIFY_TEMPLATE_CODE!,
    })
  }
  return localSms(database.db, log)
}

function storageProvider(config: Config): StorageProvider {
  if (config.STORAGE_PROVIDER === 's3') {
    return s3Storage({
      endpoint: config.S3_ENDPOINT!,
      region: config.S3_REGION!,
      bucket: config.S3_BUCKET!,
      accessKeyId: config.S3_ACCESS_KEY_ID!,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY!,
      publicUrl: config.S3_PUBLIC_URL!,
      pathStyle: config.S3_FORCE_PATH_STYLE,
    })
  }
  return diskStorage(path.join(config.dataDir, 'files'), config.PUBLIC_FILES_URL)
}

/** Migrates, seeds on first start when asked, and wires the providers. */
export async function createContext(
  config: Config,
  database: Database,
  log: FastifyBaseLogger,
): Promise<AppContext & { seeded: boolean }> {
  await migrate(database)
  const secret = config.JWT_SECRET ?? persistentSecret(config.dataDir, 'jwt_secret')
  const ctx: AppContext & { seeded: boolean } = {
    config,
    database,
    db: database.db,
    tokens: createTokenService(secret, config.TOKEN_TTL_HOURS),
    sms: smsProvider(config, database, log),
    wechat:
      config.WECHAT_APPID && config.WECHAT_SECRET
        ? openPlatformWechat({
            appid: config.WECHAT_APPID,
            secret: config.WECHAT_SECRET,
            redirectUri: config.WECHAT_REDIRECT_URI ?? null,
          })
        : disabledWechat,
    storage: storageProvider(config),
    fileLinks: createFileLinks(
      config.FILE_LINK_SECRET ?? persistentSecret(config.dataDir, 'file_link_secret'),
    ),
    map:
      config.MAP_PROVIDER === 'tencent'
        ? tencentMap({ key: config.TENCENT_MAP_KEY!, sk: config.TENCENT_MAP_SK })
        : offlineMap(),
    sealer: createSealer(config.DEVICE_SECRET_KEY ?? persistentSecret(config.dataDir, 'device_secret_key')),
    // A development server's clock can be moved forward (DEV_CLOCK, jobs/dev-clock.routes.ts).
    clock: config.DEV_CLOCK ? new OffsetClock() : systemClock,
    events: createEventBus(database, log),
    deviceCredentials: noDevices,
    log,
    // Who delivers each outbox topic: the engine drains with it and knows no handler itself.
    outbox: outboxHandlers,
    seeded: false,
  }
  // The gateway's signature check reads secrets from the device and cabinet registries.
  ctx.deviceCredentials = (sn) => senderCredentials(ctx, sn)
  // The demo devices need the context: their secrets are sealed, their photos stored.
  if (config.SEED_DEMO && (await isEmpty(database.db))) {
    await seedDemo(database.db, ctx)
    // Three weeks of the demo devices' reports, run through the engine: statuses and events.
    if (historyWanted(config)) log.info(await seedHistory(ctx), 'demo history seeded')
    ctx.seeded = true
  }
  return ctx
}
