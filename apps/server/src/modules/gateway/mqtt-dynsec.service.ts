import { commandTopic, TOPIC_PREFIX } from '@aed/contracts/device-protocol'
import type { AppContext } from '../../context.ts'
import type { Unsubscribe } from '../../db/events.ts'
import * as commands from '../device/device-command.port.ts'
import { parseUpTopic } from './mqtt-auth.ts'
import * as repo from './mqtt-dynsec.repository.ts'
import {
  type Account,
  accountsOf,
  aclCommands,
  type BrokerClient,
  type BrokerRole,
  type DynsecCommand,
  type DynsecResponse,
  modifyClient,
  needsFix,
  outcomeOf,
  type ReconcilePlan,
  type Registered,
  reconcilePlan,
  SERVER_ROLE,
  serialCommands,
  serverAcls,
} from './mqtt-dynsec.ts'
import { connectDynsecControl, type DynsecControl, type DynsecControlOptions } from './mqtt-dynsec-control.ts'

// MQTT_AUTH=mosquitto-dynsec, the running part: Mosquitto's dynamic security plugin follows the
// device register. Every change of a device's or cabinet's serial, secrets or deletion is queued
// by a trigger in the transaction that makes it (migration 0036), so it is applied after its
// commit and never lost; the NOTIFY of that commit wakes every instance, and the one that claims
// the serial (SKIP LOCKED) applies it. A failure is logged and retried with a growing delay. At
// start one instance (an advisory lock) compares the whole broker with the register.

/** The bus channel the triggers notify on (migration 0036). */
export const DYNSEC_CHANNEL = 'mqtt_dynsec'
/** The advisory lock of the reconcile: one instance at a time. */
const RECONCILE_LOCK = 720_329
/** A claim not settled in this time (its instance died) is taken again. */
const LEASE_MS = 10 * 60_000
/** Serials a drain claims at once: their commands go together, in as few $CONTROL messages. */
const CLAIM = 50
/** How often queued work is looked for without a notification (retries, overlaps ending). */
const SWEEP_MS = 5000
/** Reconcile commands past which it warns (it takes minutes) and reports its progress. */
const BIG_RECONCILE = 2000
/**
 * Every device's hello, each to one instance: Mosquitto tells the server nothing of a device's
 * subscriptions, so a hello (sent after subscribing, on every connection: device-protocol.md 4.7)
 * is when the device's waiting commands are published again.
 */
export const HELLO_SUBSCRIPTION = `$share/aedcloud-hello/${TOPIC_PREFIX}/+/up/hello`

/** Retry backoff: 5 s doubling per attempt, at most 10 minutes. */
function backoffMs(attempts: number) {
  return Math.min(600_000, 5000 * 2 ** Math.max(0, attempts - 1))
}

const errorText = (e: unknown) => (e instanceof Error ? e.message : String(e))

/** What a reconcile did, and how long it took. */
export type ReconcileResult = ReconcilePlan['counts'] & {
  devices: number
  brokerClients: number
  commands: number
  failed: number
  ms: number
}

export type DynsecSync = {
  control: DynsecControl
  /**
   * Resolves after the first reconcile at start with what it did (null: another instance was at
   * it, or it failed, logged, and is tried again).
   */
  ready: Promise<ReconcileResult | null>
  /** Compares the broker with the register and fixes it (skipped, null, when another instance is at it). */
  reconcile(): Promise<ReconcileResult | null>
  /** Applies the queued changes that are due; answers how many serials were brought in step. */
  drain(): Promise<number>
  close(): Promise<void>
}

/** Each serial's register entry: its valid secrets, and when the previous one ends (if it is valid). */
export function registeredOf(
  ctx: Pick<AppContext, 'sealer'>,
  rows: readonly repo.SealedSecrets[],
  now: Date,
) {
  const bySn = new Map<string, { reg: Registered; until: Date | null }>()
  // An AED's serial wins should a cabinet carry the same one (as senderCredentials).
  const ordered = [...rows].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'aed' ? 1 : -1))
  for (const r of ordered) {
    const secrets = [ctx.sealer.open(r.secret_enc)]
    const prevValid = r.prev_secret_enc && r.prev_secret_until && r.prev_secret_until > now
    if (prevValid && r.prev_secret_enc) secrets.push(ctx.sealer.open(r.prev_secret_enc))
    bySn.set(r.sn, { reg: { sn: r.sn, secrets }, until: prevValid ? r.prev_secret_until : null })
  }
  return bySn
}

/** Pages through a list command of the plugin (`listClients`, `listRoles`): count and offset. */
export async function listAll<T>(control: DynsecControl, command: string, key: string): Promise<T[]> {
  const out: T[] = []
  const page = 1000
  for (let offset = 0; ; offset += page) {
    const [r] = await control.send([{ command, verbose: true, count: page, offset }])
    if (r.error) throw new Error(`dynsec ${command}: ${r.error}`)
    const data = r.data as Record<string, unknown> & { totalCount?: number }
    const items = (data[key] as T[] | undefined) ?? []
    out.push(...items)
    if (items.length < page || out.length >= (data.totalCount ?? 0)) return out
  }
}

/**
 * Starts keeping the broker in step: connects to $CONTROL with the server's account, gives that
 * account the server's role (read up topics, publish down topics), reconciles, then applies
 * queued changes as they come, and answers devices' hellos with their waiting commands.
 * `sweepMs`: how often it looks for due work without a notification (tests shorten it).
 */
export function startDynsecSync(
  ctx: AppContext,
  opts: DynsecControlOptions & { sweepMs?: number },
): DynsecSync {
  const log = ctx.log.child({ module: 'mqtt-dynsec' })
  const control = connectDynsecControl(opts)
  let closed = false
  let reconciled = false

  const inflight = new Set<Promise<unknown>>()
  async function deliverWaiting(sn: string) {
    const device = await ctx.deviceCredentials(sn)
    if (!device || device.sn !== sn) return
    const waiting = await commands.takeWaiting(ctx.db, device.kind, device.id, ctx.clock.now())
    for (const c of waiting) {
      await control.client.publishAsync(commandTopic(sn), JSON.stringify(commands.toDeviceCommand(c)), {
        qos: 1,
      })
    }
  }
  let connects = 0
  control.client.on('connect', () => {
    control.client.subscribe(HELLO_SUBSCRIPTION, { qos: 1 }, (err) => {
      if (err) log.error({ err: { message: err.message } }, 'dynsec: the hello subscription failed')
    })
    // Back after a drop (a broker restart, perhaps on an older file): compare everything again
    // before applying changes, and without waiting for the backoff of those that failed meanwhile.
    if (connects++ > 0 && reconciled && !closed) {
      reconciled = false
      void startUp()
    }
  })
  control.client.on('message', (topic) => {
    const up = parseUpTopic(topic)
    if (closed || up?.type !== 'hello') return
    const p = deliverWaiting(up.sn).catch((e) =>
      log.error({ device: up.sn, err: { message: errorText(e) } }, 'mqtt command delivery failed'),
    )
    inflight.add(p)
    p.finally(() => inflight.delete(p))
  })

  async function ensureServerRole() {
    const username = opts.username
    if (!username) return
    for (let attempt = 1; ; attempt++) {
      const answers = await control.send([
        { command: 'createRole', rolename: SERVER_ROLE, acls: serverAcls() },
        { command: 'getRole', rolename: SERVER_ROLE },
        { command: 'getClient', username },
      ])
      const role = (answers[1].data as { role?: BrokerRole } | undefined)?.role
      const fix = aclCommands(SERVER_ROLE, role?.acls ?? [], serverAcls())
      const fixed = fix.length > 0 ? await control.send(fix) : []
      const failed = fixed.find((r) => r.error)
      if (failed) throw new Error(`dynsec ${failed.command} ${SERVER_ROLE}: ${failed.error}`)
      const client = answers[2].data as { client?: { roles?: { rolename: string }[] } } | undefined
      if (answers[2].error || !client?.client) {
        throw new Error(`dynsec: the server's account ${username} is not a dynsec client`)
      }
      if (client.client.roles?.some((r) => r.rolename === SERVER_ROLE)) return
      try {
        const [r] = await control.send([
          { command: 'addClientRole', username, rolename: SERVER_ROLE, priority: 10 },
        ])
        if (r.error) throw new Error(`dynsec addClientRole ${SERVER_ROLE}: ${r.error}`)
        return
      } catch (e) {
        // The plugin closes every connection of an account whose roles change, this one too
        // (and the gateway's, which reconnects): look again once reconnected.
        if (attempt >= 3) throw e
      }
    }
  }

  async function reconcileLocked(): Promise<ReconcileResult> {
    const started = Date.now()
    const now = ctx.clock.now()
    // The broker first, then the register: an account another instance's drain made for a device
    // registered meanwhile is then in the register read after it, never taken for a stray and
    // deleted (the fault suite saw that with the register read first, at a seeding instance's side).
    await ensureServerRole()
    const clients = await listAll<BrokerClient>(control, 'listClients', 'clients')
    const roles = await listAll<BrokerRole>(control, 'listRoles', 'roles')
    // The register and the queue read together: what the queue held then is covered by this pass.
    const { rows, covered } = await ctx.db.transaction(async (tx) => ({
      rows: await repo.registerSecrets(tx, null),
      covered: await repo.dueChanges(tx, now),
    }))
    const register = registeredOf(ctx, rows, now)
    const plan = reconcilePlan(
      [...register.values()].map((r) => r.reg),
      clients,
      roles,
    )
    if (plan.commands.length > BIG_RECONCILE) {
      log.warn(
        { commands: plan.commands.length },
        'dynsec reconcile: the plugin saves its whole file after each command, so this takes long ' +
          '(20,000 new devices: about 45 minutes); a first load of many devices is faster written ' +
          'offline (tools/dynsec-file.ts, docs/deploy.md)',
      )
    }
    let failed = 0
    const answers: DynsecResponse[] = []
    for (let i = 0; i < plan.commands.length; i += BIG_RECONCILE) {
      answers.push(...(await control.send(plan.commands.slice(i, i + BIG_RECONCILE))))
      if (plan.commands.length > BIG_RECONCILE) {
        log.info({ done: answers.length, of: plan.commands.length }, 'dynsec reconcile under way')
      }
    }
    answers.forEach((r, i) => {
      if (!r.error) return
      failed++
      if (failed <= 20) {
        log.error({ command: plan.commands[i].command, error: r.error }, 'dynsec reconcile command failed')
      }
    })
    if (failed > 0) throw new Error(`dynsec reconcile: ${failed} of ${plan.commands.length} commands failed`)
    const overlaps = [...register.values()].flatMap((r) =>
      r.until ? [{ sn: r.reg.sn, until: r.until }] : [],
    )
    await repo.afterReconcile(ctx.db, covered, overlaps)
    return {
      ...plan.counts,
      devices: register.size,
      brokerClients: clients.length,
      commands: plan.commands.length,
      failed,
      ms: Date.now() - started,
    }
  }

  async function reconcile(): Promise<ReconcileResult | null> {
    return ctx.database.withConnection(async (conn) => {
      const [{ locked }] = await conn.query<{ locked: boolean }>(
        'SELECT pg_try_advisory_lock($1) AS locked',
        [RECONCILE_LOCK],
      )
      if (!locked) return null
      try {
        return await reconcileLocked()
      } finally {
        await conn.query('SELECT pg_advisory_unlock($1)', [RECONCILE_LOCK])
      }
    })
  }

  /** Applies one claim of serials: their commands together, then each settled or put back. */
  async function applyChanges(changes: repo.Change[]): Promise<number> {
    const now = ctx.clock.now()
    const rows = await repo.registerSecrets(
      ctx.db,
      changes.map((c) => c.sn),
    )
    const register = registeredOf(ctx, rows, now)
    // The register's previous secret whose overlap ended: its account goes too.
    const ended = new Map(
      rows.flatMap((r) =>
        r.prev_secret_enc && r.prev_secret_until && r.prev_secret_until <= now
          ? [[r.sn, ctx.sealer.open(r.prev_secret_enc)] as const]
          : [],
      ),
    )
    type Job = { change: repo.Change; want: Account[]; until: Date | null; commands: DynsecCommand[] }
    const jobs: Job[] = changes.map((change) => {
      const entry = register.get(change.sn)
      const want = entry ? accountsOf(entry.reg) : []
      const retired = change.retired_enc.map((s) => ctx.sealer.open(s))
      const prev = ended.get(change.sn)
      return {
        change,
        want,
        until: entry?.until ?? null,
        commands: serialCommands(change.sn, want, prev ? [...retired, prev] : retired),
      }
    })
    const failures = new Map<Job, string>()
    const first = await control.send(jobs.flatMap((j) => j.commands))
    // Accounts that exist already: read, and set again only where they differ (see needsFix).
    const existing: { job: Job; account: Account }[] = []
    let k = 0
    for (const job of jobs) {
      for (const c of job.commands) {
        const answer = first[k++]
        const outcome = outcomeOf(c, answer)
        const account = outcome === 'exists' ? job.want.find((a) => a.username === c.username) : undefined
        if (account) existing.push({ job, account })
        else if (outcome !== 'ok') failures.set(job, `${c.command}: ${answer?.error ?? 'no answer'}`)
      }
    }
    if (existing.length > 0) {
      const read = await control.send(
        existing.map((e) => ({ command: 'getClient', username: e.account.username })),
      )
      const fixes = existing.filter((e, i) => {
        const client = (read[i].data as { client?: BrokerClient } | undefined)?.client
        if (read[i].error || !client) failures.set(e.job, `getClient: ${read[i].error ?? 'no client'}`)
        return client !== undefined && needsFix(e.account, client)
      })
      const answers = fixes.length > 0 ? await control.send(fixes.map((e) => modifyClient(e.account))) : []
      fixes.forEach((e, i) => {
        if (answers[i].error) failures.set(e.job, `modifyClient: ${answers[i].error}`)
      })
    }
    let done = 0
    for (const job of jobs) {
      const error = failures.get(job)
      if (error) {
        log.error(
          { device: job.change.sn, error, attempts: job.change.attempts },
          'dynsec change failed; retried',
        )
        const at = new Date(now.getTime() + backoffMs(job.change.attempts))
        await repo.retryChange(ctx.db, job.change, at, error)
        continue
      }
      await repo.settleChange(ctx.db, job.change, job.until)
      done++
    }
    return done
  }

  let draining: Promise<number> | null = null
  let again = false
  async function drainOnce(): Promise<number> {
    let total = 0
    for (;;) {
      const changes = await repo.claimChanges(ctx.db, ctx.clock.now(), LEASE_MS, CLAIM)
      if (changes.length === 0) return total
      try {
        total += await applyChanges(changes)
      } catch (e) {
        // The broker is away or did not answer: each claimed serial waits for its retry.
        const now = ctx.clock.now()
        log.error(
          { err: { message: errorText(e) }, serials: changes.length },
          'dynsec changes not applied; retried',
        )
        for (const c of changes) {
          await repo.retryChange(ctx.db, c, new Date(now.getTime() + backoffMs(c.attempts)), errorText(e))
        }
        return total
      }
    }
  }
  function drain(): Promise<number> {
    if (draining) {
      again = true
      return draining
    }
    draining = (async () => {
      let n = 0
      try {
        do {
          again = false
          n += await drainOnce()
        } while (again && !closed)
      } finally {
        draining = null
      }
      return n
    })()
    return draining
  }
  const kick = () => {
    if (closed || !reconciled) return
    drain().catch((e) => log.error({ err: { message: errorText(e) } }, 'dynsec drain failed'))
  }

  let starting: Promise<ReconcileResult | null> | null = null
  function startUp() {
    starting ??= firstReconcile().finally(() => {
      starting = null
    })
    return starting
  }
  async function firstReconcile(): Promise<ReconcileResult | null> {
    try {
      const r = await reconcile()
      if (r) log.info(r, 'dynsec reconciled with the register')
      reconciled = true
      kick()
      return r
    } catch (e) {
      log.error({ err: { message: errorText(e) } }, 'dynsec reconcile failed; tried again shortly')
      return null
    }
  }

  let unsubscribe: Unsubscribe | null = null
  const listening = ctx.events.subscribe(DYNSEC_CHANNEL, kick).then((u) => {
    unsubscribe = u
  })
  const stopReconnect = ctx.events.onReconnect(kick)
  const ready = listening.then(startUp)
  const timer = setInterval(() => {
    if (closed) return
    if (!reconciled) void startUp()
    else kick()
  }, opts.sweepMs ?? SWEEP_MS)
  timer.unref()

  return {
    control,
    ready,
    reconcile,
    drain,
    async close() {
      closed = true
      clearInterval(timer)
      stopReconnect()
      await listening.catch(() => {})
      await (unsubscribe as Unsubscribe | null)?.()
      await draining?.catch(() => {})
      await Promise.allSettled([...inflight])
      await control.close()
    },
  }
}
