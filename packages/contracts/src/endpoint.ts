import { z } from 'zod'

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

/**
 * One call of the API, written once: the server registers its route from it, the console calls
 * it, the API tests call it. `response` is the schema of `data` inside the `{code, msg, data}`
 * envelope.
 */
export type Endpoint = {
  method: Method
  /** Full path with `:name` parameters, as the spec writes it (trailing slash included). */
  path: string
  /** One line for the OpenAPI document. */
  summary: string
  params?: z.ZodType
  query?: z.ZodType
  body?: z.ZodType
  response: z.ZodType
}

/** Declares an endpoint, keeping its literal method, path and schemas in the type. */
export function endpoint<const E extends Endpoint>(e: E): E {
  return e
}

type Flat<T> = { [K in keyof T]: T[K] }

// The method and path lead, as a route table reads; the declared type is endpoint()'s, literal
// method and path included.
const declare =
  <M extends Method>(method: M) =>
  <const P extends string, const R extends Omit<Endpoint, 'method' | 'path'>>(path: P, rest: R) =>
    endpoint({ method, path, ...rest }) as Flat<{ readonly method: M; readonly path: P } & R>

/** Declares a GET endpoint: `get(path, { summary, params?, query?, response })`. */
export const get = declare('GET')
/** Declares a POST endpoint: `post(path, { summary, params?, body?, response })`. */
export const post = declare('POST')
/** Declares a PUT endpoint: `put(path, { summary, params?, body?, response })`. */
export const put = declare('PUT')
/** Declares a DELETE endpoint: `del(path, { summary, params?, query?, body?, response })`. */
export const del = declare('DELETE')

type In<S> = S extends z.ZodType ? z.input<S> : undefined
type Out<S> = S extends z.ZodType ? z.output<S> : undefined

/** What a caller sends: the schemas' input types. */
export type ParamsIn<E extends Endpoint> = In<E['params']>
export type QueryIn<E extends Endpoint> = In<E['query']>
export type BodyIn<E extends Endpoint> = In<E['body']>
/** What the server's handler receives after validation. */
export type ParamsOf<E extends Endpoint> = Out<E['params']>
export type QueryOf<E extends Endpoint> = Out<E['query']>
export type BodyOf<E extends Endpoint> = Out<E['body']>
/** `data` of the success envelope, as the caller reads it. */
export type DataOf<E extends Endpoint> = z.output<E['response']>

/** The arguments of a call, each present only when the endpoint declares it. */
export type CallInput<E extends Endpoint> = (E['params'] extends z.ZodType
  ? { params: ParamsIn<E> }
  : { params?: undefined }) &
  (E['query'] extends z.ZodType ? { query?: QueryIn<E> } : { query?: undefined }) &
  (E['body'] extends z.ZodType ? { body: BodyIn<E> } : { body?: undefined })

/** The endpoint's path with its `:name` parameters filled in (URI-encoded). */
export function pathOf(e: Pick<Endpoint, 'path'>, params?: object | null): string {
  const values = (params ?? {}) as Record<string, unknown>
  return e.path.replace(/:([a-zA-Z_]+)/g, (_, name: string) => {
    const v = values[name]
    if (v === undefined || v === null) throw new Error(`${e.path}: missing parameter ${name}`)
    return encodeURIComponent(String(v))
  })
}

/** `{id}` path parameter of the detail, update and delete calls. */
export const idParams = z.object({ id: z.coerce.number().int().positive() })

/** An empty success `data` (writes whose answer is only the message). */
export const nothing = z.null()
