import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createTestApp } from '../test/harness.ts'

// The built web app: the console's index.html and the responder's alert page rescue.html.
const web = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-web-'))
fs.writeFileSync(path.join(web, 'index.html'), '<!doctype html><title>console</title>')
fs.writeFileSync(path.join(web, 'rescue.html'), '<!doctype html><title>rescue</title>')
let t: Awaited<ReturnType<typeof createTestApp>>

beforeAll(async () => {
  t = await createTestApp({ env: { WEB_DIST: web } })
})
afterAll(async () => {
  await t?.close()
  fs.rmSync(web, { recursive: true, force: true })
})

const get = (url: string) => t.app.inject({ method: 'GET', url })
const TOKEN = 'aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5bC7dE9f'

describe('the built pages', () => {
  it("answers a responder's alert link with the rescue page, not the console", async () => {
    for (const url of [`/rescue/${TOKEN}`, `/rescue/${TOKEN}?from=sms`, '/rescue/', '/rescue']) {
      const r = await get(url)
      expect(r.statusCode, url).toBe(200)
      expect(r.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(r.body, url).toContain('<title>rescue</title>')
    }
  })

  it("answers the console's routes with the console", async () => {
    for (const url of ['/watchBoard/dashboard', '/rescues', '/emergency/call?rescue=1']) {
      expect((await get(url)).body, url).toContain('<title>console</title>')
    }
  })

  it("answers an unknown path of the responder's API in the envelope, not with a page", async () => {
    const r = await get('/responder-api/v1/nope')
    expect(r.statusCode).toBe(404)
    expect(r.json()).toMatchObject({ code: 2 })
  })

  it('serves the console for alert links too when the build has no rescue page', async () => {
    const old = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-web-'))
    fs.writeFileSync(path.join(old, 'index.html'), '<!doctype html><title>console</title>')
    const app = await createTestApp({ env: { WEB_DIST: old } })
    try {
      const r = await app.app.inject({ method: 'GET', url: `/rescue/${TOKEN}` })
      expect(r.body).toContain('<title>console</title>')
    } finally {
      await app.close()
      fs.rmSync(old, { recursive: true, force: true })
    }
  })
})
