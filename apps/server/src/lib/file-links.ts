import crypto from 'node:crypto'

/** How long a signed link works: long enough to click, too short to pass around. */
export const FILE_LINK_TTL_MS = 5 * 60_000

/** Where signed links are served: outside /api/v1, since the link itself is the permission. */
export const SIGNED_FILES_PATH = '/private-files'

/** A link to a private file and when it stops working (ISO 8601). */
export type FileLink = { url: string; expires_at: string }

/** What a signed link carries besides its path. */
export type FileLinkQuery = { expires?: string; download?: string; signature?: string }

/** Short-lived links to private files (the ECGs), signed with the server's secret. */
export type FileLinks = {
  /** A link to `key`, saved as `download`, that works for FILE_LINK_TTL_MS from `now`. */
  link(key: string, download: string, now: Date): FileLink
  /** True when the query is this server's signature over `key`, its expiry and name, not expired at `now`. */
  verify(key: string, q: FileLinkQuery, now: Date): boolean
}

/** Signed links under `secret`: HMAC-SHA256 over the key, the expiry (Unix seconds) and the download name. */
export function createFileLinks(secret: string): FileLinks {
  const sign = (key: string, expires: string, download: string) =>
    crypto.createHmac('sha256', secret).update(`${key}\n${expires}\n${download}`).digest()
  return {
    link(key, download, now) {
      const expiresAt = new Date(now.getTime() + FILE_LINK_TTL_MS)
      const expires = String(Math.floor(expiresAt.getTime() / 1000))
      const query = new URLSearchParams({
        expires,
        download,
        signature: sign(key, expires, download).toString('base64url'),
      })
      return {
        url: `${SIGNED_FILES_PATH}/${key}?${query}`,
        expires_at: new Date(Number(expires) * 1000).toISOString(),
      }
    },
    verify(key, q, now) {
      if (!q.expires || !/^\d{1,12}$/.test(q.expires) || q.signature === undefined) return false
      if (Number(q.expires) * 1000 <= now.getTime()) return false
      const expected = sign(key, q.expires, q.download ?? '')
      const given = Buffer.from(q.signature, 'base64url')
      return given.length === expected.length && crypto.timingSafeEqual(given, expected)
    },
  }
}
