import type { FastifyInstance } from 'fastify'
import { DEMO_PASSWORD } from '../../../seed/seed.ts'

// Signing in as a demo member (every one has DEMO_PASSWORD) for a bearer token.

const body = (mobile: string) => ({ mobile, password: DEMO_PASSWORD, login_way: 1, member_type: 3 })

/** Through an app in this process (inject). */
export async function signInInject(app: FastifyInstance, mobile: string): Promise<string> {
  const login = await app.inject({ method: 'POST', url: '/api/v1/member/login', payload: body(mobile) })
  return (login.json() as { data: { token: string } }).data.token
}

/** Through a server's HTTP; a refused sign-in is an error. */
export async function signInHttp(base: string, mobile: string): Promise<string> {
  const r = await fetch(`${base}/api/v1/member/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body(mobile)),
  })
  const j = (await r.json()) as { code: number; msg: string; data: { token: string } }
  if (j.code !== 0) throw new Error(`sign-in of ${mobile}: ${j.code} ${j.msg}`)
  return j.data.token
}
