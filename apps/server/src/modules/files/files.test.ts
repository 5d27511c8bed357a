import fs from 'node:fs'
import path from 'node:path'
import { Code } from '@aed/contracts'
import type { UploadResult } from '@aed/contracts/files'
import { desc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { operationLogs } from '../../db/schema.ts'
import { createTestApp, demo, type TestApp } from '../../test/harness.ts'
import { multipartBody, type Part } from '../../test/multipart.ts'

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)
/** The start of a Windows executable (MZ header, PE signature) and of a Linux ELF binary. */
const EXE = Buffer.concat([
  Buffer.from('MZ'),
  Buffer.alloc(58),
  Buffer.from([0x40, 0, 0, 0]),
  Buffer.from('PE\0\0'),
  Buffer.alloc(200),
])
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(120)])

let t: TestApp
const tokens: Record<string, string> = {}
beforeAll(async () => {
  t = await createTestApp()
  for (const k of ['admin', 'general', 'hzAdmin', 'njAdmin'] as const) tokens[k] = await t.login(demo[k])
})
afterAll(() => t.close())

async function upload(
  token: string | null,
  file: Omit<Part, 'name'> | null,
  allow = 'txt,png,jpeg,jpg',
  lang?: string,
) {
  const parts: Part[] = [{ name: 'allow_suffix', data: allow }]
  if (file) parts.unshift({ name: 'file', ...file })
  const { payload, contentType } = multipartBody(parts)
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/system/file/',
    payload,
    headers: {
      'content-type': contentType,
      ...(token ? { authorization: `JWT ${token}` } : {}),
      ...(lang ? { 'accept-language': lang } : {}),
    },
  })
  return { status: res.statusCode, ...(res.json() as { code: number; msg: string; data: UploadResult }) }
}

describe('uploading a file', () => {
  it('stores a real image, answers where it is, serves it back and logs the upload', async () => {
    const r = await upload(tokens.hzAdmin, { filename: '封面.png', type: 'image/png', data: PNG })
    expect(r).toMatchObject({ code: 0, msg: '上传成功' })
    expect(r.data).toMatchObject({ file_name: '封面.png', size: PNG.length, content_type: 'image/png' })
    expect(r.data.access_url).toMatch(/^\/files\/\d{4}\/\d{2}\/[0-9a-f-]{36}\.png$/)
    const got = await t.app.inject({ method: 'GET', url: r.data.access_url })
    expect(got.statusCode).toBe(200)
    expect(got.headers['content-type']).toBe('image/png')
    expect(got.headers['x-content-type-options']).toBe('nosniff')
    expect(got.rawPayload.equals(PNG)).toBe(true)
    const [log] = await t.db.select().from(operationLogs).orderBy(desc(operationLogs.id)).limit(1)
    expect(log).toMatchObject({
      operation_type: '上传文件',
      content: `上传文件：封面.png（${PNG.length}字节）`,
    })
  })

  it('refuses an executable renamed .png, whatever type the browser claims', async () => {
    for (const data of [EXE, ELF]) {
      const r = await upload(tokens.hzAdmin, { filename: 'photo.png', type: 'image/png', data }, 'png')
      expect(r).toMatchObject({ code: 1, msg: '文件内容与后缀不符，请上传真实的png文件！' })
    }
    const jpg = await upload(tokens.hzAdmin, { filename: 'photo.jpg', type: 'image/jpeg', data: PNG }, 'jpg')
    expect(jpg.msg).toBe('文件内容与后缀不符，请上传真实的jpg文件！')
  })

  it('refuses an image upload (the jpg/jpeg/png list) in the console’s words', async () => {
    for (const allow of ['txt,png,jpeg,jpg', 'png,jpeg,jpg']) {
      const gif = await upload(tokens.hzAdmin, { filename: 'a.gif', data: 'GIF89a' }, allow)
      expect(gif).toMatchObject({ code: 1, msg: '只能上传jpg/jpeg/png格式的图片！' })
      const fake = await upload(tokens.hzAdmin, { filename: 'photo.png', data: EXE }, allow)
      expect(fake).toMatchObject({ code: 1, msg: '只能上传jpg/jpeg/png格式的图片！' })
    }
    const en = await upload(tokens.hzAdmin, { filename: 'a.pdf', data: '%PDF' }, 'png,jpeg,jpg', 'en-US')
    expect(en.msg).toBe('only jpg/jpeg/png images can be uploaded!')
  })

  it('refuses a suffix outside allow_suffix, and one the server never accepts', async () => {
    const pdf = await upload(tokens.hzAdmin, { filename: 'a.pdf', data: '%PDF-1.4' }, 'png,jpg')
    expect(pdf).toMatchObject({ code: 1, msg: '只能上传png/jpg格式的文件！' })
    const exe = await upload(tokens.hzAdmin, { filename: 'setup.exe', data: EXE }, 'exe,png')
    expect(exe).toMatchObject({ code: 1, msg: '只能上传png格式的文件！' })
    const svg = await upload(tokens.hzAdmin, { filename: 'x.svg', data: '<svg onload="alert(1)"/>' }, 'svg')
    expect(svg.code).toBe(1)
    const none = await upload(tokens.hzAdmin, { filename: 'README', data: 'hello' })
    expect(none.code).toBe(1)
    expect((await upload(tokens.hzAdmin, { filename: 'a.pdf', data: '%PDF' }, 'png', 'en-US')).msg).toBe(
      'Only png files can be uploaded!',
    )
  })

  it('names the types the server takes when allow_suffix holds none of them, never an empty list', async () => {
    for (const allow of ['exe', 'svg,html', ' , .', 'exe,,bat']) {
      const r = await upload(tokens.hzAdmin, { filename: 'a.png', data: PNG }, allow)
      expect(r).toMatchObject({
        code: 1,
        msg: '不支持指定的文件类型，只能上传png/jpg/jpeg/gif/webp/pdf/xlsx/txt格式的文件！',
      })
    }
    const en = await upload(tokens.hzAdmin, { filename: 'x.svg', data: '<svg/>' }, 'svg', 'en-US')
    expect(en.msg).toBe(
      'None of the given file types can be uploaded: only png/jpg/jpeg/gif/webp/pdf/xlsx/txt files can be!',
    )
    // One accepted type among refused ones narrows to it, and the message names it.
    const one = await upload(tokens.hzAdmin, { filename: 'a.pdf', data: '%PDF-1.4' }, 'exe,svg,png')
    expect(one).toMatchObject({ code: 1, msg: '只能上传png格式的文件！' })
  })

  it('takes txt only as UTF-8 text without NUL', async () => {
    const good = await upload(tokens.hzAdmin, {
      filename: '说明.txt',
      type: 'text/plain',
      data: '心肺复苏\n按压深度5-6厘米',
    })
    expect(good.code).toBe(0)
    expect(good.data.content_type).toBe('text/plain; charset=utf-8')
    const nul = await upload(tokens.hzAdmin, { filename: 'a.txt', data: Buffer.from('abc\0def') })
    expect(nul).toMatchObject({ code: 1, msg: 'txt文件必须是UTF-8编码的纯文本！' })
    const gbk = await upload(tokens.hzAdmin, {
      filename: 'b.txt',
      data: Buffer.from([0xd0, 0xc4, 0xb7, 0xce]),
    })
    expect(gbk.code).toBe(1)
    const png = await upload(tokens.hzAdmin, { filename: 'c.txt', data: PNG })
    expect(png.code).toBe(1)
  })

  it('accepts 20 MB and refuses one byte more with a message, not a 413', async () => {
    const limit = 20 * 1024 * 1024
    const big = Buffer.alloc(limit)
    PNG.copy(big)
    const atLimit = await upload(tokens.hzAdmin, { filename: 'big.png', data: big })
    expect(atLimit.code).toBe(0)
    expect(atLimit.data.size).toBe(limit)
    const over = await upload(tokens.hzAdmin, {
      filename: 'big.png',
      data: Buffer.concat([big, Buffer.from([0])]),
    })
    expect(over).toMatchObject({ status: 200, code: 1, msg: '图片大小不能超过20M！' })
    const overEn = await upload(
      tokens.hzAdmin,
      { filename: 'big.jpg', data: Buffer.concat([big, Buffer.from([0])]) },
      'txt,png,jpeg,jpg',
      'en-US',
    )
    expect(overEn.msg).toBe('image size cannot exceed 20M!')
    const pdf = await upload(tokens.hzAdmin, { filename: 'big.pdf', data: Buffer.alloc(limit + 1) }, 'pdf')
    expect(pdf).toMatchObject({ status: 200, code: 1, msg: '文件大小不能超过20M！' })
  })

  it('needs a file, a suffix list and a signed-in member', async () => {
    expect(await upload(tokens.hzAdmin, null)).toMatchObject({ code: 1, msg: '请选择要上传的文件！' })
    expect(await upload(tokens.hzAdmin, { filename: 'a.png', data: Buffer.alloc(0) })).toMatchObject({
      code: 1,
      msg: '文件内容为空！',
    })
    expect(await upload(tokens.hzAdmin, { filename: 'a.png', data: PNG }, '')).toMatchObject({
      code: 1,
      msg: '请指定允许上传的文件类型',
    })
    const json = await t.call('POST', '/api/v1/system/file/', { token: tokens.hzAdmin, body: { file: 'x' } })
    expect(json).toMatchObject({ code: 1, msg: '请选择要上传的文件！' })
    expect((await upload(null, { filename: 'a.png', data: PNG })).code).toBe(Code.TOKEN)
  })

  it('lets any member upload (a read-only member fills image fields too), but only signed in', async () => {
    expect((await upload(tokens.general, { filename: 'a.png', data: PNG })).code).toBe(0)
    expect((await upload('not-a-token', { filename: 'a.png', data: PNG })).code).toBe(Code.TOKEN)
  })
})

describe('uploads the parser cannot read', () => {
  const send = (contentType: string, payload: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/system/file/',
      payload,
      headers: { 'content-type': contentType, authorization: `JWT ${tokens.hzAdmin}` },
    })

  it('answers a multipart body without a boundary or cut short with code 1, not a 500', async () => {
    const cases: [string, string][] = [
      ['multipart/form-data', 'no boundary'],
      ['multipart/form-data; boundary=', 'x'],
      [
        'multipart/form-data; boundary=zzz',
        '--zzz\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
      ],
      [
        'multipart/form-data; boundary=zzz',
        '--zzz\r\nContent-Disposition: form-data; name="allow_suffix"\r\n\r\npng',
      ],
    ]
    for (const [type, payload] of cases) {
      const res = await send(type, payload)
      expect(res.statusCode, payload).toBe(200)
      expect(res.json(), payload).toEqual({ code: 1, msg: '参数错误', data: null })
    }
  })

  it('still answers a failure of the store itself as a server error', async () => {
    const store = t.ctx.storage
    t.ctx.storage = {
      ...store,
      put: async () => {
        throw new Error('disk full')
      },
    }
    try {
      const r = await upload(tokens.hzAdmin, { filename: 'a.png', type: 'image/png', data: PNG })
      expect(r).toMatchObject({ status: 500, code: Code.INTERNAL })
    } finally {
      t.ctx.storage = store
    }
  })
})

describe('serving stored files', () => {
  it('answers 404 for unknown names, folders and anything outside the files folder', async () => {
    const { config } = t.ctx
    fs.mkdirSync(config.dataDir, { recursive: true })
    fs.writeFileSync(path.join(config.dataDir, 'secret.txt'), 'do not serve')
    const stored = await upload(tokens.njAdmin, { filename: 'a.png', data: PNG })
    const folder = stored.data.access_url.replace(/[^/]+$/, '')
    for (const url of [
      '/files/../secret.txt',
      '/files/..%2fsecret.txt',
      '/files/%2e%2e/secret.txt',
      '/files/2026/01/00000000-0000-0000-0000-000000000000.png',
      folder,
      '/files/',
      `${stored.data.access_url}.tmp`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url })
      expect(res.statusCode, url).toBe(404)
      expect(res.body).not.toContain('do not serve')
    }
  })

  it('serves a download under the name asked for', async () => {
    const stored = await upload(tokens.njAdmin, { filename: 'a.png', data: PNG })
    const res = await t.app.inject({
      method: 'GET',
      url: `${stored.data.access_url}?download=${encodeURIComponent('设备列表.png')}`,
    })
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename*=UTF-8''${encodeURIComponent('设备列表.png')}`,
    )
  })
})

describe('upload log', () => {
  it('logs the uploader’s own agency', async () => {
    const before = await t.db.select().from(operationLogs).where(eq(operationLogs.operation_type, '上传文件'))
    await upload(tokens.njAdmin, { filename: 'n.png', data: PNG })
    const after = await t.db
      .select()
      .from(operationLogs)
      .where(eq(operationLogs.operation_type, '上传文件'))
      .orderBy(operationLogs.id)
    expect(after.length).toBe(before.length + 1)
    expect(after.at(-1)?.operator).toBe('鼓楼红十字会管理员')
  })
})
