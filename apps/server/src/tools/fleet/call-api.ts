import { type CallCloseForm, type CallDetail, callApi } from '@aed/contracts/call'
import { type DevSms, devSmsApi } from '@aed/contracts/dev-sms'
import { type AlertAction, type ResponderAlert, responderAlertApi } from '@aed/contracts/dispatch'
import { pathOf } from '@aed/contracts/endpoint'
import { openApi } from '@aed/contracts/open-api'
import { responderApi } from '@aed/contracts/responder'
import { signOpenApiRequest } from '../../lib/open-api-signing.ts'
import type { CallSite, Point } from './call-model.ts'

// What the calls and the responders' phones say to the server: calls recorded through the
// console's API as the signed-in member (or the open API, signed, as a 120 centre would), the
// call's detail, the SMS outbox read back (DEV_SMS_OUTBOX) and the responder's alert link.

/** An answer whose envelope code is not 0 (or no envelope at all). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number | null,
    msg: string,
  ) {
    super(msg)
  }
}

type Envelope<T> = { code: number; msg: string; data: T }

async function request<T>(
  base: string,
  method: string,
  target: string,
  o: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<T> {
  const body = o.body === undefined ? undefined : JSON.stringify(o.body)
  const res = await fetch(new URL(target, base), {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...o.headers },
    body,
    signal: AbortSignal.timeout(30_000),
  })
  const json = (await res.json().catch(() => null)) as Envelope<T> | null
  if (!json || json.code !== 0) {
    throw new ApiError(
      res.status,
      json?.code ?? null,
      `${method} ${target.replace(/[A-Za-z0-9_-]{43}/, '…')}: HTTP ${res.status}${json ? ` ${json.code} ${json.msg}` : ''}`,
    )
  }
  return json.data
}

/** A call as the simulator placed it: its id, and the integrator's own id when it came by the open API. */
export type PlacedCall = { id: number; externalId: string | null }

export type CallForm = { phone: string; lat: number; lon: number; location: string; description: string }

export type CallsApi = {
  /** Records a call (GCJ-02). */
  place(form: CallForm, externalId: string): Promise<PlacedCall>
  close(call: PlacedCall, form: CallCloseForm): Promise<void>
  detail(id: number): Promise<CallDetail>
  /** Open calls of the scope, newest first (to find a call the simulator did not place). */
  openCalls(): Promise<{ id: number; lat: number; lon: number }[]>
  /** The SMS outbox after an id (DEV_SMS_OUTBOX). */
  sms(after: number, limit?: number): Promise<DevSms[]>
  /** Where each responder of the scope lives (the dashboard's layer), by id. */
  homes(): Promise<Map<number, Point>>
  alert(token: string): Promise<ResponderAlert>
  act(
    token: string,
    action: AlertAction,
    body?: { lat: number; lon: number; coord: 'wgs84' | 'gcj02'; accuracy?: number },
  ): Promise<ResponderAlert>
  /** How calls are recorded: console or open_api. */
  via: 'console' | 'open_api'
  /** With the open API: the integrator's own AEDs with a place (its organisation's subtree). */
  integratorSites(): Promise<CallSite[]>
}

/**
 * The server's API for the calls: the console's as the signed-in member (`token`); calls by the
 * open API instead when `integrator` (a service configuration's access token and secret) is given.
 */
export function callsApi(
  base: string,
  token: string,
  integrator: { key: string; secret: string } | null = null,
): CallsApi {
  const member = { authorization: `JWT ${token}` }
  const signed = (method: string, target: string, body?: unknown) => {
    const text = body === undefined ? undefined : JSON.stringify(body)
    return request<unknown>(base, method, target, {
      body,
      headers: signOpenApiRequest(integrator!.key, integrator!.secret, { method, target, body: text }),
    })
  }
  return {
    via: integrator ? 'open_api' : 'console',
    async place(form, externalId) {
      if (integrator) {
        const r = (await signed('POST', openApi.callIntake.path, {
          ...form,
          coord: 'gcj02',
          external_id: externalId,
        })) as { id: number }
        return { id: r.id, externalId }
      }
      const r = await request<{ id: number }>(base, 'POST', callApi.create.path, {
        body: form,
        headers: member,
      })
      return { id: r.id, externalId: null }
    },
    async close(call, form) {
      if (integrator && call.externalId) {
        await signed('PUT', pathOf(openApi.callClose, { external_id: call.externalId }), form)
        return
      }
      await request(base, 'PUT', pathOf(callApi.close, { id: call.id }), { body: form, headers: member })
    },
    detail: (id) => request<CallDetail>(base, 'GET', pathOf(callApi.detail, { id }), { headers: member }),
    async openCalls() {
      const r = await request<{ resource: { id: number; lat: number; lon: number }[] }>(
        base,
        'GET',
        `${callApi.list.path}?status=1&page=1&page_size=100`,
        { headers: member },
      )
      return r.resource
    },
    async sms(after, limit = 200) {
      const r = await request<{ resource: DevSms[] }>(
        base,
        'GET',
        `${devSmsApi.outbox.path}?after=${after}&limit=${limit}`,
        { headers: member },
      )
      return r.resource
    },
    async homes() {
      const r = await request<{ resource: [number, number, number, number, number, string][] }>(
        base,
        'GET',
        responderApi.location.path,
        { headers: member },
      )
      return new Map(r.resource.map(([id, lon, lat]) => [id, { lat, lon }]))
    },
    async integratorSites() {
      if (!integrator) return []
      const out: CallSite[] = []
      for (let page = 1; ; page++) {
        const r = (await signed('GET', `${openApi.status.path}?page=${page}&page_size=500&coord=gcj02`)) as {
          count: number
          resource: { sn: string; lat: number | null; lon: number | null; address: string | null }[]
        }
        for (const a of r.resource)
          if (a.lat !== null && a.lon !== null)
            out.push({ sn: a.sn, lat: a.lat, lon: a.lon, location: a.address ?? a.sn })
        if (r.resource.length === 0 || page * 500 >= r.count) return out
      }
    },
    alert: (t) => request<ResponderAlert>(base, 'GET', pathOf(responderAlertApi.alert, { token: t })),
    act: (t, action, body) =>
      request<ResponderAlert>(base, 'POST', pathOf(responderAlertApi.act, { token: t, action }), {
        body: body ?? {},
      }),
  }
}
