import crypto from 'node:crypto'
import { createSigner, createVerifier } from 'fast-jwt'

/** What a session token carries: the membership it is bound to and the account's token version. */
export type TokenClaims = { sub: string; acc: number; tv: number }

/** Signs and verifies session tokens (HS256). */
export function createTokenService(secret: string, ttlHours: number) {
  const sign = createSigner({ key: secret, algorithm: 'HS256', expiresIn: ttlHours * 3600_000 })
  const verify = createVerifier({ key: secret, algorithms: ['HS256'], cache: 1000 })
  return {
    /** Key for HMACs of short secrets (SMS codes), derived from the signing secret. */
    pepper: crypto.createHmac('sha256', secret).update('aed-cloud:sms-code').digest(),
    issue(memberId: number, accountId: number, tokenVersion: number): string {
      return sign({ sub: String(memberId), acc: accountId, tv: tokenVersion })
    },
    /** The claims of a valid token, or null for a malformed, forged or expired one. */
    read(token: string): TokenClaims | null {
      try {
        const c = verify(token) as Partial<TokenClaims>
        return typeof c.sub === 'string' && typeof c.acc === 'number' && typeof c.tv === 'number'
          ? (c as TokenClaims)
          : null
      } catch {
        return null
      }
    },
  }
}
export type TokenService = ReturnType<typeof createTokenService>
