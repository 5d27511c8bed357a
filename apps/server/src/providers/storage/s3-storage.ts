import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as WebReadable } from 'node:stream/web'
import { amzDateOf, payloadHashOf, signV4 } from './sigv4.ts'
import { assertKey, contentTypeOf, STORAGE_KEY, type StorageProvider } from './storage-provider.ts'

export type S3Options = {
  /** https://s3.cn-north-1.amazonaws.com.cn, https://oss-cn-hangzhou.aliyuncs.com, https://cos.ap-guangzhou.myqcloud.com */
  endpoint: string
  region: string
  bucket: string
  accessKeyId: string
  secretAccessKey: string
  /** Base URL the stored objects are read from (bucket domain or CDN). */
  publicUrl: string
  /** Bucket in the path (MinIO) instead of the host name (AWS, OSS, COS). */
  pathStyle?: boolean
  fetch?: typeof fetch
  now?: () => Date
}

/**
 * An S3-compatible object store: a SigV4-signed PUT per file, read back from `publicUrl`; private
 * files (device files, which the bucket must not serve anonymously) by a signed GET of the server.
 */
export function s3Storage(o: S3Options): StorageProvider {
  const doFetch = o.fetch ?? fetch
  const endpoint = new URL(o.endpoint)
  const host = o.pathStyle ? endpoint.host : `${o.bucket}.${endpoint.host}`
  const prefix = o.pathStyle ? `/${o.bucket}` : ''
  const publicBase = o.publicUrl.replace(/\/+$/, '')

  /** One signed PUT of a body whose SHA-256 and length are known. */
  async function send(
    key: string,
    contentType: string,
    payloadHash: string,
    body: Uint8Array | { stream: () => ReadableStream<Uint8Array>; length: number },
  ) {
    const objectPath = `${prefix}/${key}`
    const headers = {
      'content-type': contentType,
      'x-amz-content-sha256': payloadHash,
      'x-amz-date': amzDateOf(o.now?.() ?? new Date()),
    }
    const { authorization } = signV4({
      method: 'PUT',
      host,
      path: objectPath,
      headers,
      payloadHash,
      accessKeyId: o.accessKeyId,
      secretAccessKey: o.secretAccessKey,
      region: o.region,
      service: 's3',
      amzDate: headers['x-amz-date'],
    })
    // A streamed body goes with its length: object stores refuse chunked uploads without one.
    const streamed = body instanceof Uint8Array ? null : body
    // Keys are plain segments (STORAGE_KEY), so the path needs no further encoding on the wire.
    const res = await doFetch(`${endpoint.protocol}//${host}${objectPath}`, {
      method: 'PUT',
      headers: {
        ...headers,
        authorization,
        ...(streamed ? { 'content-length': String(streamed.length) } : {}),
      },
      body: streamed ? streamed.stream() : (body as Uint8Array),
      ...(streamed ? { duplex: 'half' } : {}),
      signal: AbortSignal.timeout(streamed ? 600_000 : 60_000),
    } as RequestInit)
    if (!res.ok) {
      const text = (await res.text().catch(() => '')).slice(0, 300)
      throw new Error(`Object store refused ${key}: HTTP ${res.status} ${text}`)
    }
    return { key, url: `${publicBase}/${key}` }
  }

  /** A signed GET of an object with the server's own keys; null when the store has none by that key. */
  async function get(key: string) {
    if (!STORAGE_KEY.test(key)) return null
    const objectPath = `${prefix}/${key}`
    const payloadHash = payloadHashOf('')
    const headers = { 'x-amz-content-sha256': payloadHash, 'x-amz-date': amzDateOf(o.now?.() ?? new Date()) }
    const { authorization } = signV4({
      method: 'GET',
      host,
      path: objectPath,
      headers,
      payloadHash,
      accessKeyId: o.accessKeyId,
      secretAccessKey: o.secretAccessKey,
      region: o.region,
      service: 's3',
      amzDate: headers['x-amz-date'],
    })
    const res = await doFetch(`${endpoint.protocol}//${host}${objectPath}`, {
      method: 'GET',
      headers: { ...headers, authorization },
      signal: AbortSignal.timeout(60_000),
    })
    if (res.status === 404) return null
    const size = Number(res.headers.get('content-length') ?? Number.NaN)
    if (!res.ok || !res.body || !Number.isSafeInteger(size)) {
      const text = (await res.text().catch(() => '')).slice(0, 300)
      throw new Error(`Object store refused to read ${key}: HTTP ${res.status} ${text}`)
    }
    return {
      stream: Readable.fromWeb(res.body as WebReadable<Uint8Array>),
      size,
      contentType: contentTypeOf(key),
    }
  }

  return {
    name: 's3',
    readPrivate: get,
    async put(key, body, contentType) {
      assertKey(key)
      return send(key, contentType, payloadHashOf(body), new Uint8Array(body))
    },
    /**
     * A signed PUT needs the body's hash and length before it starts: the stream is spooled to a
     * temporary file (hashed on the way), then sent from it. Memory stays one chunk deep.
     */
    async putStream(key, body, contentType) {
      assertKey(key)
      const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'aed-s3-'))
      try {
        const file = path.join(dir, 'body')
        const hash = crypto.createHash('sha256')
        let length = 0
        const measure = new Transform({
          transform(chunk: Buffer, _enc, done) {
            hash.update(chunk)
            length += chunk.length
            done(null, chunk)
          },
        })
        await pipeline(body, measure, fs.createWriteStream(file))
        const stream = () => Readable.toWeb(fs.createReadStream(file)) as ReadableStream<Uint8Array>
        return await send(key, contentType, hash.digest('hex'), { stream, length })
      } finally {
        await fs.promises.rm(dir, { recursive: true, force: true })
      }
    },
  }
}
