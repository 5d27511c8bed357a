import { amzDateOf, payloadHashOf, signV4 } from './sigv4.ts'
import { assertKey, type StorageProvider } from './storage-provider.ts'

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

/** An S3-compatible object store: a SigV4-signed PUT per file, read back from `publicUrl`. */
export function s3Storage(o: S3Options): StorageProvider {
  const doFetch = o.fetch ?? fetch
  const endpoint = new URL(o.endpoint)
  const host = o.pathStyle ? endpoint.host : `${o.bucket}.${endpoint.host}`
  const prefix = o.pathStyle ? `/${o.bucket}` : ''
  const publicBase = o.publicUrl.replace(/\/+$/, '')
  return {
    name: 's3',
    async put(key, body, contentType) {
      assertKey(key)
      const path = `${prefix}/${key}`
      const payloadHash = payloadHashOf(body)
      const headers = {
        'content-type': contentType,
        'x-amz-content-sha256': payloadHash,
        'x-amz-date': amzDateOf(o.now?.() ?? new Date()),
      }
      const { authorization } = signV4({
        method: 'PUT',
        host,
        path,
        headers,
        payloadHash,
        accessKeyId: o.accessKeyId,
        secretAccessKey: o.secretAccessKey,
        region: o.region,
        service: 's3',
        amzDate: headers['x-amz-date'],
      })
      // Keys are plain segments (STORAGE_KEY), so the path needs no further encoding on the wire.
      const res = await doFetch(`${endpoint.protocol}//${host}${path}`, {
        method: 'PUT',
        headers: { ...headers, authorization },
        body: new Uint8Array(body),
        signal: AbortSignal.timeout(60_000),
      })
      if (!res.ok) {
        const text = (await res.text().catch(() => '')).slice(0, 300)
        throw new Error(`Object store refused ${key}: HTTP ${res.status} ${text}`)
      }
      return { key, url: `${publicBase}/${key}` }
    },
  }
}
