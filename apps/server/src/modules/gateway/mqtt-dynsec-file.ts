import crypto from 'node:crypto'
import {
  accountsOf,
  DEVICE_TEXTNAME,
  type DynsecAcl,
  deviceAcls,
  deviceRole,
  isDeviceRole,
  isDeviceUsername,
  type Registered,
} from './mqtt-dynsec.ts'

// The fast way to give a broker many device accounts at once: the dynamic security plugin's
// JSON file written whole, while Mosquitto is stopped. Through $CONTROL the plugin saves the whole
// file after every command, so 20,000 devices (40,000 commands) take hours there (docs/deploy.md).

/** The parts of the plugin's file this server reads and writes; everything else is kept as is. */
type DynsecFile = {
  defaultACLAccess?: unknown
  clients?: { username: string }[]
  groups?: unknown[]
  roles?: { rolename: string }[]
  [other: string]: unknown
}

/** Mosquitto's iteration count for dynsec passwords (2.0: 101, with a 12-byte salt). */
const ITERATIONS = 101

/** A password as the plugin stores it: base64 PBKDF2-HMAC-SHA512 of the password over the salt's bytes. */
export function dynsecPasswordHash(password: string, salt = crypto.randomBytes(12)) {
  return {
    password: crypto.pbkdf2Sync(password, salt, ITERATIONS, 64, 'sha512').toString('base64'),
    salt: salt.toString('base64'),
    iterations: ITERATIONS,
  }
}

/**
 * The plugin's file for the register: the device accounts and roles (`{serial}|{tag}` and
 * `aedcloud-device:{serial}`) replaced by the register's, every other account, group, role and
 * the default access of `existing` (the file `mosquitto_ctrl dynsec init` made) kept.
 */
export function dynsecFile(existing: DynsecFile, registered: readonly Registered[]): DynsecFile {
  const clients = (existing.clients ?? []).filter((c) => !isDeviceUsername(c.username))
  const roles = (existing.roles ?? []).filter((r) => !isDeviceRole(r.rolename))
  for (const r of registered) {
    const accounts = accountsOf(r)
    if (accounts.length === 0) continue
    const acls: DynsecAcl[] = deviceAcls(r.sn).map((a) => ({ ...a, priority: 0 }))
    roles.push({ rolename: deviceRole(r.sn), acls } as { rolename: string })
    for (const a of accounts) {
      clients.push({
        username: a.username,
        textname: DEVICE_TEXTNAME,
        clientid: a.sn,
        ...dynsecPasswordHash(a.password),
        roles: [{ rolename: deviceRole(r.sn) }],
      } as { username: string })
    }
  }
  return { ...existing, clients, roles }
}
