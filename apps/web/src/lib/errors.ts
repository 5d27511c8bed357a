/** A response whose envelope code is not 0. */
export class ApiError<D = unknown> extends Error {
  readonly code: number
  readonly msg: string
  readonly data: D
  constructor(code: number, msg: string, data: D) {
    super(msg || `code ${code}`)
    this.name = 'ApiError'
    this.code = code
    this.msg = msg
    this.data = data
  }
}

export type RequestErrorKind = 'http' | 'network' | 'timeout' | 'unknown'

/** A transport failure: bad HTTP status, no network, timeout, unreadable body. */
export class RequestError extends Error {
  readonly kind: RequestErrorKind
  readonly status: number | null
  constructor(kind: RequestErrorKind, message: string, status: number | null = null) {
    super(message)
    this.name = 'RequestError'
    this.kind = kind
    this.status = status
  }
}

/** True for requests cancelled by the caller (unmount, query cancel): they stay silent. */
export function isAbort(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'AbortError'
}
