import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import path from 'node:path'

// Server processes a benchmark starts (each with its own data folder and environment), waited
// for until they answer and stopped at the end; and the benchmark's own main, which stops them
// when it fails.

/** apps/server: where the servers run. */
export const SERVER_ROOT = path.resolve(import.meta.dirname, '../../../..')
/** The server's own entry (what `npm start` runs). */
export const SERVER_MAIN = path.join(SERVER_ROOT, 'src/main.ts')

const children: ChildProcess[] = []

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
  })
}

export type ServerOptions = {
  /** Names the server in errors. */
  name: string
  /** The TypeScript file the process runs (node --import tsx), and its arguments. */
  entry: string
  args?: string[]
  /** Node's own flags, before the entry (e.g. --cpu-prof). */
  nodeArgs?: string[]
  /**
   * The server's configuration over the bench's environment and the bench defaults (no demo
   * seed, no MQTT, warnings only): DATA_DIR (created) and PORT at least; HOST 127.0.0.1.
   */
  env: Record<string, string> & { DATA_DIR: string; PORT: string }
  /** Where its output goes: stderr, and stdout too with `stdout`; appended unless `truncate`. */
  logFile: string
  stdout?: boolean
  truncate?: boolean
  /** Answers once this path does (200), asked every `everyMs` up to `tries` times. */
  ready: { path: string; everyMs: number; tries: number }
}

export type ServerProcess = { child: ChildProcess; pid: number; base: string; logFile: string }

/** Starts a server process and waits until it answers; it is stopped by stopServers(). */
export async function startServer(o: ServerOptions): Promise<ServerProcess> {
  fs.mkdirSync(o.env.DATA_DIR, { recursive: true })
  const out = fs.openSync(o.logFile, o.truncate ? 'w' : 'a')
  const child = spawn(
    process.execPath,
    [...(o.nodeArgs ?? []), '--import', 'tsx', o.entry, ...(o.args ?? [])],
    {
      cwd: SERVER_ROOT,
      env: {
        ...process.env,
        SEED_DEMO: 'false',
        MQTT_PORT: '0',
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        ...o.env,
      },
      stdio: ['ignore', o.stdout ? out : 'ignore', out],
    },
  )
  children.push(child)
  const base = `http://${o.env.HOST ?? '127.0.0.1'}:${o.env.PORT}`
  for (let i = 0; i < o.ready.tries; i++) {
    if (child.exitCode !== null)
      throw new Error(`server ${o.name} exited (${child.exitCode}); see ${o.logFile}`)
    const ok = await fetch(`${base}${o.ready.path}`)
      .then((r) => r.ok)
      .catch(() => false) // starting
    if (ok) return { child, pid: child.pid as number, base, logFile: o.logFile }
    await sleep(o.ready.everyMs)
  }
  throw new Error(`server ${o.name} did not answer; see ${o.logFile}`)
}

/** Stops the servers started: SIGTERM, `graceMs` to shut down (and write a profile), then SIGKILL. */
export async function stopServers(graceMs: number) {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM')
  await sleep(graceMs)
  killServers()
}

/** Kills the servers still running. */
export function killServers() {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL')
}

/**
 * Runs a benchmark's main. On an error: prints it, kills the servers and exits with status 1.
 * With `exit`, exits with 0 when done (open sockets and timers do not keep the process).
 */
export function runBench(main: () => Promise<unknown>, { exit = false } = {}) {
  main().then(
    () => {
      if (exit) process.exit(0)
    },
    (e) => {
      console.error(e)
      killServers()
      process.exit(1)
    },
  )
}
