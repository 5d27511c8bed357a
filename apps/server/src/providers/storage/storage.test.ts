import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { PassThrough, Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { afterAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../config.ts'
import { diskStorage } from './local-storage.ts'
import { s3Storage } from './s3-storage.ts'
import { amzDateOf, payloadHashOf, signV4 } from './sigv4.ts'
import { deviceFileKey, isPrivateKey, privateKeyOf, putStream, storageKey } from './storage-provider.ts'

// AWS's published SigV4 examples for S3 ("Signature calculations for the Authorization header:
// transferring payload in a single chunk"): the same credentials and requests give these signatures.
const aws = {
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  region: 'us-east-1',
  service: 's3',
  amzDate: '20130524T000000Z',
  host: 'examplebucket.s3.amazonaws.com',
}

describe('AWS Signature Version 4', () => {
  it('matches AWS’s GET Object example', () => {
    const empty = payloadHashOf('')
    const s = signV4({
      ...aws,
      method: 'GET',
      path: '/test.txt',
      headers: { range: 'bytes=0-9', 'x-amz-content-sha256': empty, 'x-amz-date': aws.amzDate },
      payloadHash: empty,
    })
    expect(s.signature).toBe('f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41')
    expect(s.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, ' +
        'SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, ' +
        'Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    )
  })

  it('matches AWS’s PUT Object example, with a key that needs encoding', () => {
    const body = 'Welcome to Amazon S3.'
    const hash = payloadHashOf(body)
    expect(hash).toBe('44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072')
    const s = signV4({
      ...aws,
      method: 'PUT',
      path: '/test$file.text',
      headers: {
        date: 'Fri, 24 May 2013 00:00:00 GMT',
        'x-amz-date': aws.amzDate,
        'x-amz-storage-class': 'REDUCED_REDUNDANCY',
        'x-amz-content-sha256': hash,
      },
      payloadHash: hash,
    })
    expect(s.canonicalRequest.split('\n')[1]).toBe('/test%24file.text')
    expect(s.signature).toBe('98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd')
  })

  it('formats the amz date', () => {
    expect(amzDateOf(new Date('2013-05-24T00:00:00.123Z'))).toBe('20130524T000000Z')
  })
})

describe('S3-compatible storage', () => {
  const seen: { url: string; init: RequestInit }[] = []
  const answer = (status: number, body = '') =>
    (async (url: string | URL, init?: RequestInit) => {
      seen.push({ url: String(url), init: init ?? {} })
      return new Response(body, { status })
    }) as typeof fetch
  const opts = {
    endpoint: 'https://oss-cn-hangzhou.aliyuncs.com',
    region: 'oss-cn-hangzhou',
    bucket: 'aed-files',
    accessKeyId: 'LTAI5tExampleKeyId',
    secretAccessKey: 'exampleSecret',
    publicUrl: 'https://aed-files.oss-cn-hangzhou.aliyuncs.com/',
    now: () => new Date('2026-03-01T08:00:00Z'),
  }

  it('PUTs to the bucket host with a SigV4 signature over the body and answers the public URL', async () => {
    seen.length = 0
    const s3 = s3Storage({ ...opts, fetch: answer(200) })
    const body = Buffer.from('AED')
    const r = await s3.put('2026/03/a.png', body, 'image/png')
    expect(r).toEqual({
      key: '2026/03/a.png',
      url: 'https://aed-files.oss-cn-hangzhou.aliyuncs.com/2026/03/a.png',
    })
    expect(seen[0].url).toBe('https://aed-files.oss-cn-hangzhou.aliyuncs.com/2026/03/a.png')
    const h = seen[0].init.headers as Record<string, string>
    expect(seen[0].init.method).toBe('PUT')
    expect(h['x-amz-content-sha256']).toBe(payloadHashOf(body))
    expect(h['x-amz-date']).toBe('20260301T080000Z')
    // Recomputed independently of the adapter: the same request signs to the same header.
    const expected = signV4({
      method: 'PUT',
      host: 'aed-files.oss-cn-hangzhou.aliyuncs.com',
      path: '/2026/03/a.png',
      headers: {
        'content-type': 'image/png',
        'x-amz-content-sha256': payloadHashOf(body),
        'x-amz-date': '20260301T080000Z',
      },
      payloadHash: payloadHashOf(body),
      accessKeyId: opts.accessKeyId,
      secretAccessKey: opts.secretAccessKey,
      region: opts.region,
      service: 's3',
      amzDate: '20260301T080000Z',
    })
    expect(h.authorization).toBe(expected.authorization)
    expect(h.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=LTAI5tExampleKeyId\/20260301\/oss-cn-hangzhou\/s3\/aws4_request, SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date, Signature=[0-9a-f]{64}$/,
    )
  })

  it('puts the bucket in the path when asked (MinIO)', async () => {
    seen.length = 0
    const s3 = s3Storage({ ...opts, endpoint: 'http://127.0.0.1:9000', pathStyle: true, fetch: answer(200) })
    await s3.put('2026/03/b.txt', Buffer.from('x'), 'text/plain')
    expect(seen[0].url).toBe('http://127.0.0.1:9000/aed-files/2026/03/b.txt')
  })

  it('streams a body: spooled, hashed and sent with its length, leaving no temporary file', async () => {
    const bodies: { url: string; headers: Record<string, string>; bytes: Buffer; duplex?: string }[] = []
    const reading = (async (url: string | URL, init?: RequestInit) => {
      const chunks: Buffer[] = []
      for await (const c of init!.body as unknown as AsyncIterable<Uint8Array>) chunks.push(Buffer.from(c))
      bodies.push({
        url: String(url),
        headers: init!.headers as Record<string, string>,
        bytes: Buffer.concat(chunks),
        duplex: (init as { duplex?: string }).duplex,
      })
      return new Response('', { status: 200 })
    }) as typeof fetch
    const before = fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('aed-s3-'))
    const s3 = s3Storage({ ...opts, fetch: reading })
    const parts = Array.from({ length: 50 }, (_, i) => Buffer.alloc(10_000, i))
    const r = await s3.putStream!('2026/03/d.xlsx', Readable.from(parts), 'application/zip')
    expect(r.url).toBe('https://aed-files.oss-cn-hangzhou.aliyuncs.com/2026/03/d.xlsx')
    const whole = Buffer.concat(parts)
    expect(bodies[0].bytes.equals(whole)).toBe(true)
    expect(bodies[0].headers['content-length']).toBe(String(whole.length))
    expect(bodies[0].headers['x-amz-content-sha256']).toBe(payloadHashOf(whole))
    expect(bodies[0].duplex).toBe('half')
    expect(fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('aed-s3-'))).toEqual(before)

    const refusing = s3Storage({ ...opts, fetch: answer(500, 'busy') })
    await expect(
      refusing.putStream!('2026/03/e.xlsx', Readable.from(parts), 'application/zip'),
    ).rejects.toThrow(/500/)
    expect(fs.readdirSync(os.tmpdir()).filter((n) => n.startsWith('aed-s3-'))).toEqual(before)
  })

  it('fails on a refusal and on an unsafe key', async () => {
    const s3 = s3Storage({ ...opts, fetch: answer(403, '<Error><Code>SignatureDoesNotMatch</Code></Error>') })
    await expect(s3.put('2026/03/c.png', Buffer.from('x'), 'image/png')).rejects.toThrow(
      /403.*SignatureDoesNotMatch/,
    )
    await expect(s3.put('../c.png', Buffer.from('x'), 'image/png')).rejects.toThrow(/Invalid storage key/)
  })

  it('reads a private file by a signed GET with the server’s keys; none by that key is null', async () => {
    seen.length = 0
    const key = deviceFileKey('A640000001', 'ecg-0123')
    const found = s3Storage({
      ...opts,
      fetch: (async (url: string | URL, init?: RequestInit) => {
        seen.push({ url: String(url), init: init ?? {} })
        return new Response('ECG', { status: 200, headers: { 'content-length': '3' } })
      }) as typeof fetch,
    })
    const f = await found.readPrivate!(key)
    expect(f).toMatchObject({ size: 3, contentType: 'application/octet-stream' })
    expect(await text(f!.stream)).toBe('ECG')
    expect(seen[0].url).toBe(`https://aed-files.oss-cn-hangzhou.aliyuncs.com/${key}`)
    const h = seen[0].init.headers as Record<string, string>
    expect(seen[0].init.method).toBe('GET')
    const expected = signV4({
      method: 'GET',
      host: 'aed-files.oss-cn-hangzhou.aliyuncs.com',
      path: `/${key}`,
      headers: { 'x-amz-content-sha256': payloadHashOf(''), 'x-amz-date': '20260301T080000Z' },
      payloadHash: payloadHashOf(''),
      accessKeyId: opts.accessKeyId,
      secretAccessKey: opts.secretAccessKey,
      region: opts.region,
      service: 's3',
      amzDate: '20260301T080000Z',
    })
    expect(h.authorization).toBe(expected.authorization)
    expect(await s3Storage({ ...opts, fetch: answer(404) }).readPrivate!(key)).toBeNull()
    await expect(
      s3Storage({ ...opts, fetch: answer(403, 'AccessDenied') }).readPrivate!(key),
    ).rejects.toThrow(/403.*AccessDenied/)
    expect(await found.readPrivate!('../x.bin')).toBeNull()
  })
})

describe('private keys', () => {
  it('are the device files’ keys, in any case, found in the URL a put answered for them', () => {
    const key = deviceFileKey('A640000001', 'ecg-0123')
    expect(key).toBe('device-files/A640000001/ecg-0123.bin')
    expect([key, 'DEVICE-FILES/a/b.bin'].map(isPrivateKey)).toEqual([true, true])
    expect(['2026/03/a.png', 'demo/device-files.png'].map(isPrivateKey)).toEqual([false, false])
    expect(privateKeyOf(`/files/${key}`)).toBe(key)
    expect(privateKeyOf(`https://aed-files.oss-cn-hangzhou.aliyuncs.com/${key}`)).toBe(key)
    expect(privateKeyOf(key)).toBe(key)
    for (const url of [
      '/files/2026/03/a.png',
      '/files/device-files/../x.bin',
      '/files/xdevice-files/a/b.bin',
      '',
    ]) {
      expect(privateKeyOf(url), url).toBeNull()
    }
  })
})

describe('local disk storage', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-files-'))
  const root = path.join(dir, 'files')
  const disk = diskStorage(root, '/files/')
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

  it('writes under the root and reads back with the content type of the extension', async () => {
    const key = storageKey('txt', new Date('2026-02-03T00:00:00Z'))
    expect(key).toMatch(/^2026\/02\/[0-9a-f-]{36}\.txt$/)
    expect(await disk.put(key, Buffer.from('你好'), 'text/plain')).toEqual({ key, url: `/files/${key}` })
    expect(fs.readFileSync(path.join(root, key), 'utf8')).toBe('你好')
    const f = await disk.read!(key)
    expect(f).toMatchObject({ size: 6, contentType: 'text/plain; charset=utf-8' })
    expect(await text(f!.stream)).toBe('你好')
  })

  it('streams a body to disk, and keeps nothing of a stream that fails', async () => {
    const key = storageKey('xlsx')
    const r = await disk.putStream!(key, Readable.from([Buffer.from('ab'), Buffer.from('cd')]), 'x')
    expect(r).toEqual({ key, url: `/files/${key}` })
    expect(fs.readFileSync(path.join(root, key), 'utf8')).toBe('abcd')
    // The producer's own stream: its error reaches the producer through its own code, not here.
    const broken = new PassThrough().on('error', () => {})
    const failed = disk.putStream!(storageKey('xlsx'), broken, 'x')
    broken.write('half')
    broken.destroy(new Error('export failed'))
    await expect(failed).rejects.toThrow('export failed')
    const left = fs.readdirSync(path.dirname(path.join(root, key)))
    expect(left).toEqual([path.basename(key)])
  })

  it('buffers a stream for a provider without a streaming put', async () => {
    const seen: Buffer[] = []
    const plain = {
      name: 'plain',
      put: async (k: string, body: Buffer) => {
        seen.push(body)
        return { key: k, url: `/x/${k}` }
      },
    }
    await putStream(plain, 'a/b.txt', Readable.from([Buffer.from('1'), Buffer.from('2')]), 'text/plain')
    expect(Buffer.concat(seen).toString()).toBe('12')
  })

  it('refuses keys that could leave the root, and reads nothing outside it', async () => {
    fs.writeFileSync(path.join(dir, 'outside.txt'), 'x')
    for (const key of [
      '../outside.txt',
      '/etc/passwd',
      'a/../../outside.txt',
      '.hidden.txt',
      'a//b.txt',
      'noext',
    ]) {
      await expect(disk.put(key, Buffer.from('x'), 'text/plain'), key).rejects.toThrow()
      expect(await disk.read!(key), key).toBeNull()
    }
    expect(await disk.read!('2026/02')).toBeNull()
  })

  it('never reads a private key for the public route; readPrivate does', async () => {
    const key = deviceFileKey('A640000001', 'ecg-4567')
    await disk.put(key, Buffer.from('ECG'), 'application/octet-stream')
    expect(await disk.read!(key)).toBeNull()
    expect(await disk.read!(key.toUpperCase())).toBeNull()
    expect(await text((await disk.readPrivate!(key))!.stream)).toBe('ECG')
    expect(await disk.readPrivate!('../outside.txt')).toBeNull()
  })
})

describe('storage configuration', () => {
  it('defaults to local disk and checks the S3 settings as a whole', () => {
    expect(loadConfig({}).STORAGE_PROVIDER).toBe('local')
    expect(() => loadConfig({ STORAGE_PROVIDER: 's3', S3_BUCKET: 'b' })).toThrow(
      /STORAGE_PROVIDER=s3 needs S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_PUBLIC_URL/,
    )
    expect(() => loadConfig({ S3_ENDPOINT: 'not a url' })).toThrow(/S3_ENDPOINT/)
    expect(() => loadConfig({ PUBLIC_FILES_URL: 'files' })).toThrow(/PUBLIC_FILES_URL/)
    expect(() => loadConfig({ MAP_PROVIDER: 'tencent' })).toThrow(/TENCENT_MAP_KEY/)
    const s3 = loadConfig({
      STORAGE_PROVIDER: 's3',
      S3_ENDPOINT: 'https://cos.ap-guangzhou.myqcloud.com',
      S3_REGION: 'ap-guangzhou',
      S3_BUCKET: 'aed-1250000000',
      S3_ACCESS_KEY_ID: 'AKID',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_PUBLIC_URL: 'https://aed-1250000000.cos.ap-guangzhou.myqcloud.com',
    })
    expect(s3.S3_FORCE_PATH_STYLE).toBe(false)
  })
})
