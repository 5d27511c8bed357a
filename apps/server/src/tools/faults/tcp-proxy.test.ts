import net from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTcpProxy, type TcpProxy } from './tcp-proxy.ts'

// The proxy against an echo server: what reaches the target is what comes back, so a dropped
// chunk is proven dropped by the next one coming back alone, without waiting for a silence.

type Echo = { server: net.Server; port: number; connections: number }

async function echoServer(): Promise<Echo> {
  const echo = { connections: 0 } as Echo
  echo.server = net.createServer((s) => {
    echo.connections++
    s.on('error', () => {})
    s.pipe(s)
  })
  await new Promise<void>((resolve) => echo.server.listen(0, '127.0.0.1', resolve))
  echo.port = (echo.server.address() as net.AddressInfo).port
  return echo
}

/** A client of the proxy that collects what comes back, and how it ended. */
async function client(port: number) {
  const s = net.connect(port, '127.0.0.1')
  const c = { s, got: '', ended: null as string | null }
  s.on('data', (d: Buffer) => {
    c.got += d.toString()
  })
  s.on('error', (e: NodeJS.ErrnoException) => {
    c.ended = e.code ?? e.message
  })
  s.on('close', () => {
    c.ended ??= 'closed'
  })
  await new Promise<void>((resolve, reject) => {
    s.once('connect', resolve)
    s.once('error', reject)
  })
  return c
}

/** Waits until `ok()` holds, at most `ms`. */
async function until(ok: () => boolean, ms = 3000) {
  const deadline = Date.now() + ms
  while (!ok()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((r) => setTimeout(r, 5))
  }
}

let echo: Echo
let proxy: TcpProxy

beforeEach(async () => {
  echo = await echoServer()
  proxy = await startTcpProxy({ host: '127.0.0.1', port: echo.port })
})

afterEach(async () => {
  await proxy.close()
  await new Promise<void>((resolve) => echo.server.close(() => resolve()))
})

describe('tcp proxy', () => {
  it('passes traffic both ways', async () => {
    const c = await client(proxy.port)
    c.s.write('hello')
    await until(() => c.got === 'hello')
    expect(proxy.open()).toBe(1)
    c.s.destroy()
  })

  it('delays every chunk by the delay', async () => {
    const c = await client(proxy.port)
    c.s.write('a')
    await until(() => c.got === 'a')
    await proxy.setMode({ kind: 'delay', ms: 150 })
    const t0 = Date.now()
    c.s.write('b')
    await until(() => c.got === 'ab')
    // Both directions wait: at least two delays for the round trip.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(290)
    c.s.destroy()
  })

  it('drops what is sent while dropping, on open and on new connections, and passes again after', async () => {
    const open = await client(proxy.port)
    open.s.write('1')
    await until(() => open.got === '1')
    await proxy.setMode({ kind: 'drop' })
    open.s.write('lost')
    const fresh = await client(proxy.port)
    fresh.s.write('lost too')
    await until(() => proxy.dropped() === 'lost'.length + 'lost too'.length)
    expect(echo.connections).toBe(1)
    await proxy.setMode({ kind: 'pass' })
    open.s.write('2')
    fresh.s.write('x')
    await until(() => open.got === '12' && fresh.got === 'x')
    expect(echo.connections).toBe(2)
    expect(open.ended).toBeNull()
    open.s.destroy()
    fresh.s.destroy()
  })

  it('resets open connections and every new one', async () => {
    const c = await client(proxy.port)
    c.s.write('a')
    await until(() => c.got === 'a')
    await proxy.setMode({ kind: 'reset' })
    await until(() => c.ended !== null)
    expect(c.ended).toBe('ECONNRESET')
    const late = net.connect(proxy.port, '127.0.0.1')
    const code = await new Promise<string>((resolve) => {
      late.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message))
      late.on('close', () => resolve('closed'))
    })
    expect(['ECONNRESET', 'closed']).toContain(code)
    expect(proxy.open()).toBe(0)
  })

  it('refuses new connections, keeps open ones, and takes them again on the same port', async () => {
    const c = await client(proxy.port)
    await proxy.setMode({ kind: 'refuse' })
    await expect(client(proxy.port)).rejects.toMatchObject({ code: 'ECONNREFUSED' })
    c.s.write('still')
    await until(() => c.got === 'still')
    await proxy.setMode({ kind: 'pass' })
    const again = await client(proxy.port)
    again.s.write('back')
    await until(() => again.got === 'back')
    c.s.destroy()
    again.s.destroy()
  })
})
