import crypto from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/** Reads a generated secret from DATA_DIR/secrets, creating it on first use (mode 0600). */
export function persistentSecret(dataDir: string, name: string): string {
  const dir = path.join(dataDir, 'secrets')
  const file = path.join(dir, name)
  try {
    return fs.readFileSync(file, 'utf8').trim()
  } catch {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
    const value = crypto.randomBytes(48).toString('base64url')
    fs.writeFileSync(file, value, { mode: 0o600, flag: 'wx' })
    return value
  }
}
