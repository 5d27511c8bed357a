// What GET /api/ready asks besides the database (modules/system/system.routes.ts): whether the
// schema is being migrated (db/migrate.ts marks its database while it runs) and whether the
// MQTT broker (embedded or external) is connected (the gateway tells, per app context).

/** The broker as the readiness check sees it: off (MQTT_PORT=0, no MQTT_URL), or a probe. */
export type BrokerProbe = 'off' | (() => boolean)

const migrating = new WeakSet<object>()
const brokers = new WeakMap<object, BrokerProbe>()

/** Marks a database as being migrated until `done` is called. */
export function migrationStarted(database: object): () => void {
  migrating.add(database)
  return () => void migrating.delete(database)
}

export function isMigrating(database: object): boolean {
  return migrating.has(database)
}

/** The context's broker, once started: a probe answering whether it is connected, or 'off'. */
export function setBroker(ctx: object, probe: BrokerProbe | null): void {
  if (probe === null) brokers.delete(ctx)
  else brokers.set(ctx, probe)
}

/** 'up', 'off', 'down' (started, not connected now) or 'starting' (not started yet). */
export function brokerState(ctx: object): 'up' | 'off' | 'down' | 'starting' {
  const b = brokers.get(ctx)
  if (b === undefined) return 'starting'
  if (b === 'off') return 'off'
  return b() ? 'up' : 'down'
}
