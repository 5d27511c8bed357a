import type { ServiceConfig } from '@aed/contracts/service-config'
import { sql } from 'drizzle-orm'
import { one } from '../db/sql.ts'
import { signOpenApiRequest } from '../lib/open-api-signing.ts'
import { demo, type TestApp } from './harness.ts'
import { multipartBody } from './multipart.ts'

/** An integrator as a test drives it: a service configuration's credentials, and signed calls. */
export type TestIntegrator = {
  agency_id: number
  token: string
  secret: string
  /** A signed GET of a target (path and query as sent); the envelope with the HTTP status. */
  get<T = unknown>(
    target: string,
    o?: { lang?: 'zh-CN' | 'en-US'; headers?: Record<string, string> },
  ): Promise<{ status: number; code: number; msg: string; data: T }>
  /** A signed multipart upload of one file as `file` (POST /open-api/v1/file/). */
  upload<T = unknown>(
    target: string,
    file: { filename: string; type: string; data: Buffer },
  ): Promise<{ status: number; code: number; msg: string; data: T }>
  /** A signed POST or PUT of a JSON body. */
  send<T = unknown>(
    method: 'POST' | 'PUT',
    target: string,
    body: unknown,
  ): Promise<{ status: number; code: number; msg: string; data: T }>
}

/**
 * A service configuration of `agencyId` with `services`, created as an administrator does it on
 * the service configuration page (POST /api/v1/agency/app-service/config as the demo super
 * administrator), and its integrator, signing with the app's clock.
 */
export async function testIntegrator(
  t: TestApp,
  agencyId: number,
  services: string[] = ['open_api', 'mini_program'],
): Promise<TestIntegrator> {
  const admin = await t.login(demo.superAdmin)
  const created = await t.call<ServiceConfig>('POST', '/api/v1/agency/app-service/config', {
    token: admin,
    body: { agency_id: agencyId, service: services, state: 1 },
  })
  if (created.code !== 0) throw new Error(`service configuration: ${created.code} ${created.msg}`)
  const token = created.data.access_token as string
  const secret = created.data.secret as string
  return {
    agency_id: agencyId,
    token,
    secret,
    async get(target, o = {}) {
      const headers = signOpenApiRequest(token, secret, {
        method: 'GET',
        target,
        timestamp: Math.floor(t.ctx.clock.now().getTime() / 1000),
      })
      const res = await t.app.inject({
        method: 'GET',
        url: target,
        headers: { ...headers, ...(o.lang ? { 'accept-language': o.lang } : {}), ...o.headers },
      })
      return { status: res.statusCode, ...res.json() }
    },
    async upload(target, file) {
      const { payload, contentType } = multipartBody([{ name: 'file', ...file }])
      const headers = signOpenApiRequest(token, secret, {
        method: 'POST',
        target,
        body: payload,
        timestamp: Math.floor(t.ctx.clock.now().getTime() / 1000),
      })
      const res = await t.app.inject({
        method: 'POST',
        url: target,
        headers: { ...headers, 'content-type': contentType },
        payload,
      })
      return { status: res.statusCode, ...res.json() }
    },
    async send(method, target, body) {
      const payload = JSON.stringify(body)
      const headers = signOpenApiRequest(token, secret, {
        method,
        target,
        body: payload,
        timestamp: Math.floor(t.ctx.clock.now().getTime() / 1000),
      })
      const res = await t.app.inject({
        method,
        url: target,
        headers: { ...headers, 'content-type': 'application/json' },
        payload,
      })
      return { status: res.statusCode, ...res.json() }
    },
  }
}

/** A query string of defined values, as an integrator writes one. */
export function queryOf(q: Record<string, string | number | undefined>): string {
  const s = new URLSearchParams(
    Object.entries(q).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
  ).toString()
  return s ? `?${s}` : ''
}

/**
 * Rows of the tables an open-API read must never write (the guard's nonces and request buckets
 * are its own bookkeeping): equal before and after a test's reads.
 */
export function recordCounts(t: TestApp) {
  return one<Record<string, number>>(
    t.db,
    sql`SELECT (SELECT count(*) FROM devices) AS devices, (SELECT count(*) FROM installations) AS installations,
      (SELECT count(*) FROM device_states) AS states, (SELECT count(*) FROM device_events) AS events,
      (SELECT count(*) FROM device_inbox) AS inbox, (SELECT count(*) FROM classrooms) AS classrooms,
      (SELECT count(*) FROM operation_logs) AS logs, (SELECT count(*) FROM outbox) AS outbox,
      (SELECT count(*) FROM webhook_deliveries) AS deliveries, (SELECT count(*) FROM messages) AS messages,
      (SELECT count(*) FROM app_service_configs) AS configs`,
  )
}
