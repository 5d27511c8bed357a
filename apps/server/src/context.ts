import type { FastifyBaseLogger } from 'fastify'
import type { Config } from './config.ts'
import type { Database, Db, DbOrTx } from './db/client.ts'
import type { EventBus } from './db/events.ts'
import type { Clock } from './lib/clock.ts'
import type { DeviceCredentialLookup } from './lib/device-credentials.ts'
import type { FileLinks } from './lib/file-links.ts'
import type { Sealer } from './lib/sealed.ts'
import type { TokenService } from './lib/tokens.ts'
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
  /** Short-lived signed links to private files (a rescue's ECG), under FILE_LINK_SECRET. */
  fileLinks: FileLinks
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
   * Who delivers each outbox topic (the table jobs/outbox.ts composes): the engine writes outbox
   * rows and drains them with this table after a commit, knowing no handler itself.
   */
  outbox: OutboxHandlers
  /**
   * Whether a commit that wrote outbox rows drains them at once in this process (the default);
   * tests that drive the outbox by hand turn it off.
   */
  drainOnCommit?: boolean
  /** How long the live channel waits for a console's first message (5 s; tests shorten it). */
  liveAuthTimeoutMs?: number
}

/** A scheduled check. `run` gets the tick's clock time; it must be safe to run again after a failure. */
export type Job = {
  /** Unique; keys the advisory lock and the job_runs row. */
  name: string
  /** Due again this long after its last successful run. */
  everyMs: number
  run(ctx: AppContext, now: Date): Promise<void>
}

/** The topics of the outbox table (migration and engine): who is told of a change. */
export type OutboxTopic = 'live' | 'message' | 'sms' | 'webhook' | 'dispatch'

/** An outbox row as a handler gets it. */
export type OutboxRecord = {
  id: number
  topic: OutboxTopic
  dedupe_key: string
  agency_id: number | null
  index_link: string | null
  payload: Record<string, unknown>
  attempts: number
  create_time: Date
}

/**
 * Delivers one row. It runs inside the drain's transaction (a savepoint): database effects
 * commit with the row's `done_at`, so a row is done exactly once; outside effects (an SMS
 * vendor, a webhook) must use `dedupe_key` as their idempotency key.
 */
export type OutboxHandler = (ctx: AppContext, tx: DbOrTx, row: OutboxRecord) => Promise<void>

/** Delivers all due rows of one topic together, last in a drain (see drainOutbox). */
export type OutboxBatchHandler = {
  batch: (ctx: AppContext, tx: DbOrTx, rows: OutboxRecord[]) => Promise<void>
}

/** Who delivers each topic; a topic without a handler waits in the table. */
export type OutboxHandlers = Partial<Record<OutboxTopic, OutboxHandler | OutboxBatchHandler>>
