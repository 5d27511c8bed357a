import { type CallInput, type DataOf, type Endpoint, type Envelope, pathOf } from '@aed/contracts'
import { API_BASE, type RequestOptions, request, requestEnvelope, uploadEnvelope } from './request'

type Extra = Pick<RequestOptions, 'signal' | 'token' | 'username' | 'timeoutMs'>

function options<E extends Endpoint>(e: E, input: CallInput<E> & Extra): [string, RequestOptions] {
  const { params, query, body, ...rest } = input as {
    params?: object
    query?: Record<string, string | number | boolean | null | undefined>
    body?: unknown
  } & Extra
  // The tables hold full paths; the request client adds its own /api base.
  const path = pathOf(e, params).slice(API_BASE.length)
  const writes = e.method !== 'GET' && e.method !== 'DELETE'
  return [path, { ...rest, method: e.method, query, body: writes ? (body ?? {}) : body }]
}

/** Calls an endpoint of a contracts table and resolves with its typed `data`. */
export function callApi<E extends Endpoint>(e: E, input: CallInput<E> & Extra): Promise<DataOf<E>> {
  return request<DataOf<E>>(...options(e, input))
}

/** Like `callApi`, with the whole envelope, for writes that show the server's message. */
export function sendApi<E extends Endpoint>(e: E, input: CallInput<E> & Extra): Promise<Envelope<DataOf<E>>> {
  return requestEnvelope<DataOf<E>>(...options(e, input))
}

/** Calls a multipart endpoint (file uploads): the fields go as FormData, in the order given. */
export function uploadApi<E extends Endpoint>(
  e: E,
  fields: Record<string, string | Blob>,
  extra: Extra = {},
): Promise<DataOf<E>> {
  const body = new FormData()
  for (const [name, value] of Object.entries(fields)) body.append(name, value)
  return request<DataOf<E>>(pathOf(e).slice(API_BASE.length), { ...extra, method: e.method, body })
}

/** Like `uploadApi`, with the whole envelope and the upload's progress (0-100). */
export function uploadWithProgress<E extends Endpoint>(
  e: E,
  fields: Record<string, string | Blob>,
  onProgress?: (percent: number) => void,
): Promise<Envelope<DataOf<E>>> {
  const body = new FormData()
  for (const [name, value] of Object.entries(fields)) body.append(name, value)
  return uploadEnvelope<DataOf<E>>(pathOf(e).slice(API_BASE.length), body, onProgress)
}
