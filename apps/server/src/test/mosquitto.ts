import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

/** Where Debian's package puts the broker; tests that need it skip elsewhere (CI installs it). */
export const MOSQUITTO = '/usr/sbin/mosquitto'
export const hasMosquitto = fs.existsSync(MOSQUITTO)

export type Mosquitto = {
  port: number
  url: string
  dir: string
  /** Stops it (SIGTERM: it saves its persistence) and starts it again on the same port and files. */
  restart(): Promise<void>
  stop(): Promise<void>
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port
      s.close(() => resolve(port))
    })
  })
}

/**
 * A real Mosquitto 2 on a free loopback port, anonymous access allowed, with `extra` lines added
 * to its configuration (a plugin, persistence). Resolves once it accepts connections.
 */
export async function startMosquitto(extra: string[] = []): Promise<Mosquitto> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aed-mosquitto-'))
  // Started as root, Mosquitto drops to its own user, which must be able to write its persistence.
  fs.chmodSync(dir, 0o777)
  const port = await freePort()
  const conf = path.join(dir, 'mosquitto.conf')
  fs.writeFileSync(
    conf,
    [`listener ${port} 127.0.0.1`, 'allow_anonymous true', `persistence_location ${dir}/`, ...extra, ''].join(
      '\n',
    ),
  )
  let child = await launch(conf, port)
  const exited = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve()
      child.once('exit', () => resolve())
      child.kill('SIGTERM')
    })
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    dir,
    async restart() {
      await exited()
      child = await launch(conf, port)
    },
    async stop() {
      await exited()
      fs.rmSync(dir, { recursive: true, force: true })
    },
  }
}

async function launch(conf: string, port: number): Promise<ChildProcess> {
  const child = spawn(MOSQUITTO, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (b) => {
    stderr += String(b)
  })
  const deadline = Date.now() + 10_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`mosquitto exited: ${stderr}`)
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.destroy()
        resolve(true)
      })
      s.on('error', () => resolve(false))
    })
    if (up) return child
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`mosquitto did not listen on ${port}: ${stderr}`)
    }
    await new Promise((r) => setTimeout(r, 20))
  }
}
