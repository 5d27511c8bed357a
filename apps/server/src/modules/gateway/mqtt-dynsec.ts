import { TOPIC_PREFIX } from '@aed/contracts/device-protocol'
import { DYNSEC_USERNAME, dynsecLogin } from './mqtt-auth.ts'

// MQTT_AUTH=mosquitto-dynsec, the pure part: which accounts and roles Mosquitto's dynamic
// security plugin must hold for the register, and the commands of its $CONTROL API that bring
// it there. Mosquitto 2.0.11 does not substitute %c or %u in dynsec ACLs (tried against the real
// broker), so every serial has a role of its own naming its topics.

/** One command of the plugin's `$CONTROL/dynamic-security/v1` API. */
export type DynsecCommand = { command: string } & Record<string, unknown>

/** The plugin's answer to one command: `error` set when it failed. */
export type DynsecResponse = { command: string; error?: string; data?: unknown; correlationData?: string }

/** An ACL entry of a dynsec role. */
export type DynsecAcl = { acltype: string; topic: string; allow: boolean; priority?: number }

/** A serial's broker accounts: one per valid secret (two during a rotation's overlap). */
export type Account = { sn: string; username: string; password: string }

/** The register as the broker must see it: each serial with its valid secrets. */
export type Registered = { sn: string; secrets: readonly string[] }

/** A device client as `listClients` (verbose) reports it. */
export type BrokerClient = { username: string; clientid?: string; roles?: { rolename: string }[] }

/** A role as `listRoles` (verbose) reports it. */
export type BrokerRole = { rolename: string; acls?: DynsecAcl[] }

/** Marks the accounts the server made (their textname), for an operator reading the broker. */
export const DEVICE_TEXTNAME = 'aedcloud device'
const ROLE_PREFIX = 'aedcloud-device:'
/** The role the server gives its own account: publish commands and results, read up topics. */
export const SERVER_ROLE = 'aedcloud-server'

/** The role of one serial's accounts. */
export function deviceRole(sn: string): string {
  return `${ROLE_PREFIX}${sn}`
}

/** Whether a username is of the form the server gives device accounts (others are left alone). */
export function isDeviceUsername(username: string): boolean {
  return DYNSEC_USERNAME.test(username)
}

/** Whether a role is one the server keeps for a serial. */
export function isDeviceRole(rolename: string): boolean {
  return rolename.startsWith(ROLE_PREFIX)
}

/**
 * A serial's role: publish on its own up topics, subscribe to its own down topics (the filter
 * `down/#` or anything narrower). Everything else falls to the plugin's defaults, which
 * `mosquitto_ctrl dynsec init` sets to deny publishing and subscribing.
 */
export function deviceAcls(sn: string): DynsecAcl[] {
  return [
    { acltype: 'publishClientSend', topic: `${TOPIC_PREFIX}/${sn}/up/+`, allow: true },
    { acltype: 'subscribePattern', topic: `${TOPIC_PREFIX}/${sn}/down/#`, allow: true },
  ]
}

/** The server's role: read every device's up topics (the shared subscription) and publish on down topics. */
export function serverAcls(): DynsecAcl[] {
  return [
    { acltype: 'publishClientSend', topic: `${TOPIC_PREFIX}/+/down/#`, allow: true },
    { acltype: 'subscribePattern', topic: `${TOPIC_PREFIX}/+/up/#`, allow: true },
    { acltype: 'subscribePattern', topic: `$share/+/${TOPIC_PREFIX}/+/up/#`, allow: true },
    { acltype: 'publishClientReceive', topic: `${TOPIC_PREFIX}/+/up/#`, allow: true },
  ]
}

/** A serial's accounts, one per secret (two secrets with the same tag are one account: the newer). */
export function accountsOf(r: Registered): Account[] {
  const byName = new Map<string, Account>()
  for (const secret of [...r.secrets].reverse()) {
    const login = dynsecLogin(secret, r.sn)
    byName.set(login.username, { sn: r.sn, ...login })
  }
  return [...byName.values()]
}

function createClient(a: Account): DynsecCommand {
  return {
    command: 'createClient',
    username: a.username,
    password: a.password,
    clientid: a.sn,
    textname: DEVICE_TEXTNAME,
    roles: [{ rolename: deviceRole(a.sn) }],
  }
}

/** Sets everything of an existing account (the plugin cannot tell its password, so that too). */
export function modifyClient(a: Account): DynsecCommand {
  return {
    command: 'modifyClient',
    username: a.username,
    password: a.password,
    clientid: a.sn,
    textname: DEVICE_TEXTNAME,
    roles: [{ rolename: deviceRole(a.sn) }],
  }
}

const createRole = (sn: string): DynsecCommand => ({
  command: 'createRole',
  rolename: deviceRole(sn),
  acls: deviceAcls(sn),
})

/**
 * The first round of bringing one serial in step without knowing what the broker holds: its role
 * and accounts created (an existing one answers "already exists": see `needsFix`), the accounts of
 * `retired` secrets (rotated past, the serial deleted or renamed) deleted: that also closes their
 * open connections. A role left without accounts is deleted by the next reconcile, which knows
 * every account (see aclCommands for why not here).
 */
export function serialCommands(sn: string, want: Account[], retired: readonly string[]): DynsecCommand[] {
  const keep = new Set(want.map((a) => a.username))
  const gone = [...new Set(retired.map((s) => dynsecLogin(s, sn).username))].filter((u) => !keep.has(u))
  return [
    ...(want.length > 0 ? [createRole(sn)] : []),
    ...want.map(createClient),
    ...gone.map((username) => ({ command: 'deleteClient', username })),
  ]
}

/** What a command's error means: done already (the state wanted is there), redo as a modify, or a failure. */
export function outcomeOf(c: DynsecCommand, r: DynsecResponse | undefined): 'ok' | 'exists' | 'failed' {
  if (!r) return 'failed'
  if (!r.error) return 'ok'
  const e = r.error.toLowerCase()
  if (c.command === 'createClient' && e.includes('already exists')) return 'exists'
  if (c.command === 'createRole' && e.includes('already exists')) return 'ok'
  if ((c.command === 'deleteClient' || c.command === 'deleteRole') && e.includes('not found')) return 'ok'
  return 'failed'
}

/**
 * Whether an existing account must be set again: its client id or roles are not the serial's.
 * Only then: the plugin closes an account's connections on any modifyClient, so a rotation must not
 * touch the account of the secret the device is still connected with. (Its password cannot be
 * read back; the account's name is a tag of the same secret.)
 */
export function needsFix(a: Account, c: BrokerClient): boolean {
  const roles = (c.roles ?? []).map((x) => x.rolename)
  return c.clientid !== a.sn || roles.length !== 1 || roles[0] !== deviceRole(a.sn)
}

const aclKey = (a: DynsecAcl) => `${a.acltype} ${a.topic} ${a.allow}`

/**
 * The commands that make a role's ACLs the wanted ones, in place: removeRoleACL and addRoleACL.
 * Never deleteRole and createRole again: Mosquitto 2.0.11 leaves a deleted role's name dangling in
 * the accounts that held it (seen as garbage in listClients; the broker then stopped answering).
 */
export function aclCommands(rolename: string, have: readonly DynsecAcl[], want: readonly DynsecAcl[]) {
  const wanted = new Set(want.map(aclKey))
  const had = new Set(have.map(aclKey))
  return [
    ...have
      .filter((a) => !wanted.has(aclKey(a)))
      .map((a) => ({ command: 'removeRoleACL', rolename, acltype: a.acltype, topic: a.topic })),
    ...want.filter((a) => !had.has(aclKey(a))).map((a) => ({ command: 'addRoleACL', rolename, ...a })),
  ] as DynsecCommand[]
}

/** What a reconcile found and does. */
export type ReconcilePlan = {
  commands: DynsecCommand[]
  counts: {
    rolesCreated: number
    rolesFixed: number
    rolesDeleted: number
    clientsCreated: number
    clientsFixed: number
    clientsDeleted: number
  }
}

/**
 * Compares the broker (its device accounts and roles, as listed) with the register and answers
 * the commands that make them agree: missing roles and accounts created, a role whose ACLs differ
 * made again, an account whose client id or roles differ set again (password included), device
 * accounts and roles nobody registered deleted. Accounts and roles of other forms (the server's,
 * an operator's) are not touched. Passwords cannot be read back: an account of the right name is
 * taken to have the right one (its name is a tag of the same secret).
 */
export function reconcilePlan(
  registered: readonly Registered[],
  clients: readonly BrokerClient[],
  roles: readonly BrokerRole[],
): ReconcilePlan {
  const counts = {
    rolesCreated: 0,
    rolesFixed: 0,
    rolesDeleted: 0,
    clientsCreated: 0,
    clientsFixed: 0,
    clientsDeleted: 0,
  }
  const haveClients = new Map(clients.filter((c) => isDeviceUsername(c.username)).map((c) => [c.username, c]))
  const haveRoles = new Map(roles.filter((r) => isDeviceRole(r.rolename)).map((r) => [r.rolename, r]))
  const roleCommands: DynsecCommand[] = []
  const clientCommands: DynsecCommand[] = []
  const wantClients = new Set<string>()
  const wantRoles = new Set<string>()
  const fixed = new Set<string>()
  for (const r of registered) {
    const accounts = accountsOf(r)
    if (accounts.length === 0) continue
    const rolename = deviceRole(r.sn)
    wantRoles.add(rolename)
    const role = haveRoles.get(rolename)
    if (!role) {
      counts.rolesCreated++
      roleCommands.push(createRole(r.sn))
    } else {
      const fix = aclCommands(rolename, role.acls ?? [], deviceAcls(r.sn))
      if (fix.length > 0) counts.rolesFixed++
      roleCommands.push(...fix)
    }
    for (const a of accounts) {
      wantClients.add(a.username)
      const c = haveClients.get(a.username)
      if (!c) {
        counts.clientsCreated++
        clientCommands.push(createClient(a))
        continue
      }
      if (needsFix(a, c)) {
        counts.clientsFixed++
        clientCommands.push(modifyClient(a))
        fixed.add(a.username)
      }
    }
  }
  const deletes: DynsecCommand[] = []
  for (const username of haveClients.keys()) {
    if (wantClients.has(username)) continue
    counts.clientsDeleted++
    deletes.push({ command: 'deleteClient', username })
  }
  // A role still held by an account that stays is kept (see aclCommands for why).
  const held = new Set(
    clients
      .filter((c) => !isDeviceUsername(c.username) || (wantClients.has(c.username) && !fixed.has(c.username)))
      .flatMap((c) => (c.roles ?? []).map((x) => x.rolename)),
  )
  for (const rolename of haveRoles.keys()) {
    if (wantRoles.has(rolename) || held.has(rolename)) continue
    counts.rolesDeleted++
    deletes.push({ command: 'deleteRole', rolename })
  }
  return { commands: [...roleCommands, ...clientCommands, ...deletes], counts }
}
