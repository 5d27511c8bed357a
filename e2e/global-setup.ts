import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string
  }
}

const root = path.resolve(import.meta.dirname, '..')

/** Starts the real server (built console, fresh PGlite folder, demo seed) for the whole e2e run. */
export default async function setup(project: TestProject) {
  const web = path.join(root, 'apps/web/dist/index.html')
  if (!fs.existsSync(web))
    throw new Error('The console is not built: run `npm run build` first (npm test does).')
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-e2e-'))
  const port = 19000 + Math.floor(Math.random() * 1000)
  const server: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(port),
      MQTT_PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // The webhook journey's receiver listens on 127.0.0.1, which push URLs may not name otherwise.
      WEBHOOK_ALLOW_PRIVATE: '1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const baseURL = `http://127.0.0.1:${port}`
  const end = Date.now() + 90_000
  for (;;) {
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`)
    try {
      if ((await fetch(`${baseURL}/api/health`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > end) {
      // Not left behind holding its port and folder for the next run.
      server.kill('SIGKILL')
      fs.rmSync(dataDir, { recursive: true, force: true })
      throw new Error('the server did not start in 90 s')
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  await escalateLate(baseURL)
  project.provide('baseURL', baseURL)
  return async () => {
    server.kill('SIGTERM')
    await new Promise((r) => server.once('exit', r))
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

/**
 * The journeys share one server: an alarm one journey leaves unconfirmed would be escalated five
 * minutes later (the default) and its popup would cover a later journey's page. Every demo
 * organisation escalates after an hour here instead; the escalation itself has its API tests.
 */
async function escalateLate(baseURL: string) {
  const call = async (method: string, url: string, token?: string, body?: unknown) => {
    const res = await fetch(`${baseURL}${url}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const json = (await res.json()) as { code: number; msg: string; data: Record<string, unknown> }
    if (json.code !== 0) throw new Error(`${method} ${url}: ${json.code} ${json.msg}`)
    return json.data
  }
  const login = await call('POST', '/api/v1/member/login', undefined, {
    mobile: '13800000000',
    password: 'Aed@123456',
    login_way: 1,
    member_type: 3,
  })
  const token = login.token as string
  const agencies = (await call('GET', '/api/v1/agency/?page=1&page_size=100', token)).resource as {
    id: number
  }[]
  for (const { id } of agencies) {
    const settings = await call('GET', `/api/v1/agency/config/?agency_id=${id}`, token)
    await call('POST', '/api/v1/agency/config/', token, {
      ...settings,
      agency_id: id,
      alarm_escalate_minutes: 60,
    })
  }
}
