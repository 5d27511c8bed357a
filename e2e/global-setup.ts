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
  project.provide('baseURL', baseURL)
  return async () => {
    server.kill('SIGTERM')
    await new Promise((r) => server.once('exit', r))
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}
