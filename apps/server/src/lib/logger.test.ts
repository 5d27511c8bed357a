import { describe, expect, it } from 'vitest'
import { createLogger, redactUrl, scrubText, serializeError } from './logger.ts'

const HASH = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$SGFzaGhhc2hIYXNoaGFzaA'

/** A logger writing into an array, and the lines it wrote. */
function capture() {
  const lines: string[] = []
  const log = createLogger('info', { write: (s: string) => void lines.push(s) })
  return { log, text: () => lines.join('') }
}

/** None of the secrets shows anywhere in the output (each named when one does). */
function expectNoneOf(out: string, secrets: string[]) {
  for (const secret of secrets) expect(out, secret).not.toContain(secret)
}

describe('the server logger', () => {
  it('censors known fields at any of the first four levels, and authorization headers', () => {
    const { log, text } = capture()
    log.info(
      {
        password: 'Secret123',
        body: { mobile: '13912345678', account: { email: 'a@b.cn', profile: { phone: '13912345679' } } },
        req: { headers: { authorization: 'JWT abc.def.ghi', cookie: 'sid=1', 'set-cookie': 'x' } },
        token: 'tok',
        sms_code: '123456',
        kept: 'visible',
      },
      'hello',
    )
    const out = text()
    expectNoneOf(out, ['Secret123', '13912345678', 'a@b.cn', '13912345679', 'abc.def.ghi', 'sid=1', 'tok"'])
    expect(out).toContain('"kept":"visible"')
    expect(out).toContain('[redacted]')
  })

  it('masks phones, emails, password hashes and tokens written into messages', () => {
    const { log, text } = capture()
    log.info(`SMS to 13800000000 for x@y.com: ${HASH} eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln code 123456`)
    const out = text()
    expect(out).not.toMatch(/13800000000|x@y\.com|argon2|eyJhbGci/)
    expect(out).toContain('SMS to [phone] for [email]: [password-hash] [token] code 123456')
  })

  it('drops a failed query’s parameters and the driver’s quoted row from errors', () => {
    const cause = Object.assign(
      new Error('duplicate key value violates unique constraint "accounts_phone_key"'),
      {
        code: '23505',
        constraint: 'accounts_phone_key',
        detail: 'Key (phone)=(13800000000) already exists.',
      },
    )
    const params = ['13800000000', 'wang@example.com', HASH, 'multi\nline secret']
    const err = Object.assign(
      new Error(`Failed query: insert into "accounts" values ($1, $2, $3, $4)\nparams: ${params}`),
      {
        query: 'insert into "accounts" values ($1, $2, $3, $4)',
        params,
        cause,
      },
    )
    const out = JSON.stringify(serializeError(err))
    expectNoneOf(out, ['13800000000', 'wang@example.com', 'argon2', 'multi', 'line secret', 'Key (phone)'])
    expect(out).toContain('params: [redacted]')
    expect(out).toContain('insert into \\"accounts\\"')
    expect(serializeError(err)).toMatchObject({ cause: { code: '23505', constraint: 'accounts_phone_key' } })
    // A job that logs only the message of such an error is masked too.
    const plain = JSON.stringify(serializeError({ message: err.message }))
    expect(plain).not.toMatch(/13800000000|wang@example\.com|argon2/)
  })

  it('logs a request URL with the query values and any phone in the path masked', () => {
    expect(redactUrl('/api/v1/member/?phone=13800000000&name=%E7%8E%8B&page=1')).toBe(
      '/api/v1/member/?phone=[redacted]&name=[redacted]&page=[redacted]',
    )
    expect(redactUrl('/api/v1/account/13800000000')).toBe('/api/v1/account/[phone]')
    expect(redactUrl('/api/health')).toBe('/api/health')
    expect(scrubText('order 12345678901234 and 2026-05-17')).toBe('order 12345678901234 and 2026-05-17')
  })
})
