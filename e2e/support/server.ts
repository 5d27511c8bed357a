import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const root = path.resolve(import.meta.dirname, '../..')

/** A real server of the journeys: where it answers, and how to stop it (its folder removed). */
export type E2eServer = { baseURL: string; stop(): Promise<void> }

/**
 * Starts the real server (built console, fresh PGlite folder, demo seed) on a port of its own,
 * with `env` added to the process's (e.g. DEV_CLOCK=1), once it answers /api/health.
 */
export async function startServer(env: Record<string, string> = {}, timeoutMs = 90_000): Promise<E2eServer> {
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
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  const exited = new Promise((r) => server.once('exit', r))
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill('SIGTERM')
      await exited
    }
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
  const baseURL = `http://127.0.0.1:${port}`
  const end = Date.now() + timeoutMs
  for (;;) {
    if (server.exitCode !== null) {
      await stop()
      throw new Error(`the server exited with ${server.exitCode}`)
    }
    try {
      if ((await fetch(`${baseURL}/api/health`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > end) {
      // Not left behind holding its port and folder for the next run.
      server.kill('SIGKILL')
      await exited
      fs.rmSync(dataDir, { recursive: true, force: true })
      throw new Error(`the server did not start in ${timeoutMs / 1000} s`)
    }
    await new Promise((r) => setTimeout(r, 250))
  }
  return { baseURL, stop }
}

type Envelope<T> = { code: number; msg: string; data: T }

/** Calls the console API and answers the whole envelope, whatever its code. */
export async function callApi<T = unknown>(
  baseURL: string,
  method: string,
  url: string,
  { token, body }: { token?: string; body?: unknown } = {},
): Promise<Envelope<T>> {
  const res = await fetch(`${baseURL}${url}`, {
    method,
    headers: {
      ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `JWT ${token}` } : {}),
    },
    body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
  })
  return (await res.json()) as Envelope<T>
}

/** A member's console token, signed in through the API with a password. */
export async function apiSignIn(baseURL: string, mobile: string, password: string): Promise<string> {
  const r = await callApi<{ token: string }>(baseURL, 'POST', '/api/v1/member/login', {
    body: { mobile, password, login_way: 1, member_type: 3 },
  })
  if (r.code !== 0) throw new Error(`login ${mobile}: ${r.code} ${r.msg}`)
  return r.data.token
}

/**
 * Journeys share a server: an alarm one journey leaves unconfirmed would be escalated five
 * minutes later (the default) and its popup would cover a later journey's page. Every demo
 * organisation escalates after an hour here instead; the escalation itself has its API tests.
 */
export async function escalateLate(baseURL: string) {
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
