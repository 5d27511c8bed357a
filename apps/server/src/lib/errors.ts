import { Code, type CodeValue, type MessageKey } from '@aed/contracts'

/** An error the client is meant to see: a code of the catalogue and a message key. */
export class AppError extends Error {
  constructor(
    readonly code: CodeValue,
    readonly key: MessageKey,
    readonly params: Record<string, string | number> = {},
    /** Extra data the console may act on (e.g. the memberships to pick from). */
    readonly data: unknown = null,
  ) {
    super(key)
  }
}

export const invalid = (key: MessageKey, params?: Record<string, string | number>) =>
  new AppError(Code.INVALID, key, params)
export const forbidden = (key: MessageKey = 'FORBIDDEN') => new AppError(Code.FORBIDDEN, key)
export const unauthenticated = (key: MessageKey = 'TOKEN_INVALID') => new AppError(Code.TOKEN, key)
export const notFound = (key: MessageKey = 'NOT_FOUND') => new AppError(Code.NOT_FOUND, key)
