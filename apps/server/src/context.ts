import type { FastifyBaseLogger } from 'fastify'
import type { Config } from './config.ts'
import type { Database, Db } from './db/client.ts'
import type { Clock } from './lib/clock.ts'
import type { EventBus } from './lib/events.ts'
import type { Sealer } from './lib/sealed.ts'
import type { TokenService } from './lib/tokens.ts'
import type { DeviceCredentialLookup } from './plugins/auth/device.ts'
import type { MapProvider } from './providers/map/map-provider.ts'
import type { SmsProvider } from './providers/sms/sms-provider.ts'
import type { StorageProvider } from './providers/storage/storage-provider.ts'
import type { WechatProvider } from './providers/wechat/wechat-provider.ts'

/** What services need from the outside world; built once in main.ts or by a test. */
export type AppContext = {
  config: Config
  database: Database
  db: Db
  tokens: TokenService
  sms: SmsProvider
  wechat: WechatProvider
  /** Uploaded and generated files (local disk or an S3-compatible store). */
  storage: StorageProvider
  /** Place search and reverse geocoding (offline regions or Tencent). */
  map: MapProvider
  /** "Now" for schedules, deadlines and freshness checks; tests put a TestClock here. */
  clock: Clock
  /** Publish/subscribe across every server instance (PostgreSQL LISTEN/NOTIFY; in process on PGlite). */
  events: EventBus
  /** Encrypts and decrypts device secrets (AES-256-GCM under DEVICE_SECRET_KEY). */
  sealer: Sealer
  /** A device's secrets by serial, for the /device-api signature check; the device registry fills it. */
  deviceCredentials: DeviceCredentialLookup
  /** The server's logger, for work that runs outside a request (the engine, jobs). */
  log: FastifyBaseLogger
  /**
   * Whether a commit that wrote outbox rows drains them at once in this process (the default);
   * tests that drive the outbox by hand turn it off.
   */
  drainOnCommit?: boolean
  /** How long the live channel waits for a console's first message (5 s; tests shorten it). */
  liveAuthTimeoutMs?: number
}
