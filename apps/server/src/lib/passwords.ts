import { hash, verify } from '@node-rs/argon2'

// Algorithm.Argon2id of @node-rs/argon2: an ambient const enum, so its value is written out.
const ARGON2ID = 2

/** argon2id with the library's defaults (19 MiB, 2 passes). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: ARGON2ID })
}

// Verified against when the account does not exist, so a wrong phone costs as long as a wrong password.
const dummy = hash('dummy-password-for-timing', { algorithm: ARGON2ID })

/** True when `password` matches `stored`; a missing hash verifies a dummy and answers false. */
export async function checkPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    await verify(await dummy, password).catch(() => false)
    return false
  }
  return verify(stored, password).catch(() => false)
}
