import { describe, expect, it } from 'vitest'
import { checkPassword, hashPassword } from './passwords.ts'

// The API tests sign the demo accounts in against a cheap test-only hash (test/templates.ts);
// the parameters every real password gets are fixed here.
describe('password hashing', () => {
  it('uses argon2id at 19 MiB and 2 passes, and verifies only the right password', async () => {
    const stored = await hashPassword('Aed@123456')
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(await checkPassword(stored, 'Aed@123456')).toBe(true)
    expect(await checkPassword(stored, 'Aed@1234567')).toBe(false)
    expect(await checkPassword(null, 'Aed@123456')).toBe(false)
  })
})
