import crypto from 'node:crypto'

/**
 * Secrets the server must read back (device secrets: it computes the same HMAC as the device),
 * kept encrypted at rest with AES-256-GCM under the server's key. Format: `v1.<iv>.<tag>.<data>`
 * in base64url, so a key change can add a version.
 */
export type Sealer = { seal(plain: string): string; open(sealed: string): string }

/** A sealer under a key of any length (hashed to 32 bytes). */
export function createSealer(key: string): Sealer {
  const k = crypto.createHash('sha256').update(key).digest()
  return {
    seal(plain) {
      const iv = crypto.randomBytes(12)
      const cipher = crypto.createCipheriv('aes-256-gcm', k, iv)
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()])
      const parts = [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url'))
      return `v1.${parts.join('.')}`
    },
    open(sealed) {
      const [v, iv, tag, data] = sealed.split('.')
      if (v !== 'v1' || !iv || !tag || data === undefined) throw new Error('not a sealed value')
      const decipher = crypto.createDecipheriv('aes-256-gcm', k, Buffer.from(iv, 'base64url'))
      decipher.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
        'utf8',
      )
    },
  }
}

/** A new device secret: 32 random bytes as 64 lower-case hex characters (the protocol's form). */
export function newDeviceSecret(): string {
  return crypto.randomBytes(32).toString('hex')
}
