import { type Endpoint, envelope } from '@aed/contracts'
import {
  OPEN_API_HEADERS,
  OPEN_API_NONCE,
  OPEN_API_SERVICE_OF,
  OPEN_API_TS_WINDOW_S,
  openApi,
  openApiRefusalSchema,
} from '@aed/contracts/open-api'
import { z } from 'zod'

/** Where the open API's own OpenAPI document is served (outside /api/docs, which is the console's API). */
export const OPEN_API_DOCS_PATH = '/open-api/docs'

type JsonSchema = Record<string, unknown>

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), without the `$schema` line. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema
  return rest
}

/** The path or query parameters of an object schema, one OpenAPI parameter each. */
function parameters(schema: z.ZodType | undefined, where: 'path' | 'query') {
  if (!schema) return []
  const s = jsonSchema(schema, 'input') as { properties?: Record<string, JsonSchema>; required?: string[] }
  return Object.entries(s.properties ?? {}).map(([name, p]) => ({
    name,
    in: where,
    required: where === 'path' || (s.required ?? []).includes(name),
    ...(typeof p.description === 'string' ? { description: p.description } : {}),
    schema: p,
  }))
}

const header = (name: string, description: string) => ({ type: 'apiKey', in: 'header', name, description })

const refusal = (description: string) => ({
  description,
  content: { 'application/json': { schema: jsonSchema(envelope(openApiRefusalSchema), 'output') } },
})

/**
 * The open API as an OpenAPI 3.1 document, built from the `openApi` endpoint table (the same
 * schemas validate the requests and answers), with the signed-request scheme of docs/open-api.md.
 */
export function openApiDocument(): JsonSchema {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const [name, e] of Object.entries(openApi) as [keyof typeof openApi, Endpoint][]) {
    const path = e.path.replace(/:(\w+)/g, '{$1}')
    paths[path] ??= {}
    paths[path][e.method.toLowerCase()] = {
      operationId: name,
      summary: e.summary,
      tags: ['open api'],
      'x-aed-service': OPEN_API_SERVICE_OF[name],
      parameters: [...parameters(e.params, 'path'), ...parameters(e.query, 'query')],
      responses: {
        200: {
          description:
            'The envelope: code 0 and data; bad input code 1 and its message; an AED not in your organisation code 2',
          content: { 'application/json': { schema: jsonSchema(envelope(e.response), 'output') } },
        },
        400: refusal('The body differs from the one signed (data.error body_mismatch)'),
        401: refusal('Refused by the signature check: data.error names why (code -1)'),
        403: refusal('The configuration lacks the service this call needs (service_denied, code -2)'),
        429: refusal('Too many requests: retry after data.retry_after seconds (rate_limited)'),
      },
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'AED Cloud open API',
      version: '1.0.0',
      description:
        "Signed requests for integrators, scoped to the subtree of the service configuration's organisation. " +
        'Every response is {code, msg, data}. Sign `METHOD\\nPATH\\nSORTED_QUERY\\nTIMESTAMP\\nNONCE\\nhex(SHA-256(body))` ' +
        'with HMAC-SHA256 keyed by the secret and send the four X-AED-* headers (docs/open-api.md). ' +
        'Coordinates are GCJ-02 unless coord=wgs84.',
    },
    components: {
      securitySchemes: {
        aedKey: header(OPEN_API_HEADERS.key, "The service configuration's access token"),
        aedTimestamp: header(
          OPEN_API_HEADERS.timestamp,
          `Unix time in seconds, within ${OPEN_API_TS_WINDOW_S} s of the server's`,
        ),
        aedNonce: header(OPEN_API_HEADERS.nonce, `Once per key: ${OPEN_API_NONCE.source}`),
        aedSignature: header(
          OPEN_API_HEADERS.signature,
          'Lowercase hex HMAC-SHA256 of the canonical string, keyed by the secret',
        ),
      },
    },
    // All four together: one security requirement naming each.
    security: [{ aedKey: [], aedTimestamp: [], aedNonce: [], aedSignature: [] }],
    paths,
  }
}
