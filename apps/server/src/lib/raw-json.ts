/**
 * An answer the database wrote as JSON text (a map layer of thousands of points): a route sends
 * it inside the envelope as it is instead of validating and serialising every point again.
 */
export class RawJson {
  constructor(
    /** One JSON value, complete. */
    readonly text: string,
  ) {}
}

/** The envelope around a `data` that may be RawJson: spliced as text, anything else stringified. */
export function envelopeText(payload: { code: number; msg: string; data: unknown }): string {
  if (!(payload.data instanceof RawJson)) return JSON.stringify(payload)
  return `{"code":${payload.code},"msg":${JSON.stringify(payload.msg)},"data":${payload.data.text}}`
}
