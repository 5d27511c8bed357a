import { type ChildProcess, spawn } from 'node:child_process'
import fs from 'node:fs'
import net from 'node:net'
import os from 'node:os'
import path from 'node:path'

/** Where Debian's package puts the broker; tests that need it skip elsewhere (CI installs it). */
export const MOSQUITTO = '/usr/sbin/mosquitto'
export const hasMosquitto = fs.existsSync(MOSQUITTO)

export type Mosquitto = { port: number; url: string; dir: string; stop(): Promise<void> }

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
  const port = await freePort()
  const conf = path.join(dir, 'mosquitto.conf')
  fs.writeFileSync(
    conf,
    [`listener ${port} 127.0.0.1`, 'allow_anonymous true', `persistence_location ${dir}/`, ...extra, ''].join(
      '\n',
    ),
  )
  const child: ChildProcess = spawn(MOSQUITTO, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] })
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
    if (up) break
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error(`mosquitto did not listen on ${port}: ${stderr}`)
    }
    await new Promise((r) => setTimeout(r, 20))
  }
  return {
    port,
    url: `mqtt://127.0.0.1:${port}`,
    dir,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => {
          fs.rmSync(dir, { recursive: true, force: true })
          resolve()
        })
        child.kill('SIGTERM')
      }),
  }
}
