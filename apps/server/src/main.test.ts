import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const main = path.join(import.meta.dirname, 'main.ts')
const started: ChildProcess[] = []

function start(dataDir: string, port: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      MQTT_PORT: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: '/nonexistent',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  started.push(child)
  let out = ''
  child.stdout!.on('data', (d) => {
    out += d
  })
  child.stderr!.on('data', (d) => {
    out += d
  })
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)))
  return { child, output: () => out, exited }
}

async function waitHealthy(port: number, ms = 60_000) {
  const end = Date.now() + ms
  while (Date.now() < end) {
    try {
      const r = await fetch(`http://127.0.0.1:${port}/api/health`)
      if (r.ok) return ((await r.json()) as { code: number }).code
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200))
  }
  throw new Error('server did not become healthy')
}

afterAll(() => {
  for (const c of started) c.kill('SIGKILL')
})

describe('server process', () => {
  it('seeds and prints sign-ins, refuses a second process on the folder, restarts after a kill', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-main-'))
    const port = 18000 + Math.floor(Math.random() * 1000)
    const first = start(dir, port)
    expect(await waitHealthy(port)).toBe(0)
    expect(first.output()).toContain('13800000000')

    const second = start(dir, port + 1)
    expect(await second.exited).toBe(1)
    expect(second.output()).toContain('is in use by another AED Cloud server')

    first.child.kill('SIGKILL')
    await first.exited
    const third = start(dir, port + 2)
    expect(await waitHealthy(port + 2)).toBe(0)
    // The demo network is seeded only once: the restart found it and did not seed again.
    const login = await fetch(`http://127.0.0.1:${port + 2}/api/v1/member/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mobile: '13800000000', password: 'Aed@123456', login_way: 1, member_type: 3 }),
    })
    expect(((await login.json()) as { code: number }).code).toBe(0)
    third.child.kill('SIGTERM')
    expect(await third.exited).toBe(0)
    expect(fs.existsSync(path.join(dir, 'server.lock'))).toBe(false)
  }, 120_000)

  it('exits with a clear message on bad configuration', async () => {
    const bad = spawn(process.execPath, ['--import', 'tsx', main], {
      env: { ...process.env, PORT: 'not-a-port' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let err = ''
    bad.stderr.on('data', (d) => {
      err += d
    })
    expect(await new Promise((r) => bad.on('exit', r))).toBe(1)
    expect(err).toContain('Invalid configuration')
    expect(err).toContain('PORT')
  }, 30_000)
})
