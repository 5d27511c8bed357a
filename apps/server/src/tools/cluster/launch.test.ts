import { spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { alive, type Cluster, type ClusterState, missingBinaries, startCluster } from './launch.ts'

// The whole cluster from Debian's packages (CI installs them; skipped where they are missing):
// sign-in through nginx, an upload through one instance read through the other (they share
// DATA_DIR: main.ts locks it only for PGlite), nginx carrying on when an instance is killed,
// a second launcher on the folder refused, and nothing left running after stop().

const missing = missingBinaries()
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-cluster-'))
// PostgreSQL and Mosquitto run as their own users under root: they must reach their folders.
fs.chmodSync(dir, 0o755)
let cluster: Cluster | null = null

afterAll(async () => {
  await cluster?.stop()
  fs.rmSync(dir, { recursive: true, force: true })
})

const readState = () => JSON.parse(fs.readFileSync(path.join(dir, 'state.json'), 'utf8')) as ClusterState

function accepts(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const s = net.connect(Number(port), hostname)
    s.once('connect', () => {
      s.destroy()
      resolve(true)
    })
    s.once('error', () => resolve(false))
  })
}

/** Runs `npm run cluster`'s entry on the same folder; resolves with its exit code and output. */
function secondLauncher(): Promise<{ code: number | null; out: string }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(import.meta.dirname, 'main.ts'), '--dir', dir],
    {
      env: { ...process.env, CLUSTER_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  )
  let out = ''
  child.stdout.on('data', (d) => {
    out += d
  })
  child.stderr.on('data', (d) => {
    out += d
  })
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
  return new Promise((resolve) =>
    child.on('exit', (code) => {
      clearTimeout(timer)
      resolve({ code, out })
    }),
  )
}

describe.skipIf(missing.length > 0)('npm run cluster', () => {
  it('serves through nginx, survives a killed instance, and stops every process', async () => {
    cluster = await startCluster({
      dir,
      port: 0,
      servers: 2,
      env: { SEED_HISTORY: 'false', LOG_LEVEL: 'warn' },
      log: () => {},
    })
    const { urls } = cluster
    const state = readState()
    expect(state.processes.map((p) => p.name)).toEqual([
      'postgres',
      'mosquitto',
      'server-0',
      'server-1',
      'nginx',
    ])
    for (const p of state.processes) expect(alive(p.pid), p.name).toBe(true)
    expect(state.mqttAccount.username).toBe(cluster.mqttAccount.username)

    const login = await fetch(`${urls.http}/api/v1/member/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ mobile: '13800000000', password: 'Aed@123456', login_way: 1, member_type: 3 }),
    }).then((r) => r.json() as Promise<{ code: number; data: { token: string } }>)
    expect(login.code).toBe(0)
    const auth = { authorization: `Bearer ${login.data.token}` }

    // An upload through instance 0 is served by instance 1: one DATA_DIR/files for both.
    const png = Buffer.from(
      '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
        '1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
      'hex',
    )
    const form = new FormData()
    form.append('allow_suffix', 'png')
    form.append('file', new Blob([png], { type: 'image/png' }), 'dot.png')
    const upload = await fetch(`${urls.servers[0]}/api/v1/system/file/`, {
      method: 'POST',
      headers: auth,
      body: form,
    }).then((r) => r.json() as Promise<{ code: number; data: { access_url: string } }>)
    expect(upload.code).toBe(0)
    const file = await fetch(`${urls.servers[1]}${new URL(upload.data.access_url, urls.http).pathname}`)
    expect(file.status).toBe(200)
    expect(Buffer.from(await file.arrayBuffer()).equals(png)).toBe(true)

    const second = await secondLauncher()
    expect(second.code).toBe(1)
    expect(second.out).toContain('A cluster is already running')

    // Instance 0 killed outright: every request through nginx is still answered (by instance 1).
    const killed = state.processes.find((p) => p.name === 'server-0')!.pid
    await cluster.killServer(0)
    expect(alive(killed)).toBe(false)
    for (let i = 0; i < 4; i++) {
      const menu = await fetch(`${urls.http}/api/v1/system/menu`, { headers: auth })
      expect(menu.status).toBe(200)
      expect(((await menu.json()) as { code: number }).code).toBe(0)
    }
    expect(readState().processes.find((p) => p.name === 'server-0')?.running).toBe(false)

    // Started again: state.json names the new process.
    await cluster.startServer(0)
    const restarted = readState().processes.find((p) => p.name === 'server-0')!
    expect(restarted.running).toBe(true)
    expect(restarted.pid).not.toBe(killed)
    expect(alive(restarted.pid)).toBe(true)

    const pids = readState().processes.map((p) => p.pid)
    await cluster.stop()
    cluster = null
    for (const pid of pids) expect(alive(pid), String(pid)).toBe(false)
    // nginx's workers too: nothing listens on its port any more.
    expect(await accepts(urls.http)).toBe(false)
    expect(readState().processes.every((p) => !p.running)).toBe(true)
  }, 90_000)
})
