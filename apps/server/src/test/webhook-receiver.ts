import http from 'node:http'
import type net from 'node:net'

/** One request a receiver got. */
export type Received = {
  path: string
  id: string
  headers: Record<string, string>
  body: string
  at: number
}

/** How a path answers a request: a status, headers, a body, and optionally a promise it waits on first. */
export type Answer = { status: number; headers?: Record<string, string>; body?: string; hold?: Promise<void> }

/**
 * A webhook receiver on 127.0.0.1 for tests and benchmarks: every request is recorded by path;
 * each path answers 200 unless told otherwise (`answer(path, fn)`); `until(path, n)` waits (real
 * time, bounded) for the n-th request of a path.
 */
export async function startReceiver() {
  const got: Received[] = []
  const answers = new Map<string, (r: Received) => Answer>()
  let waiters: (() => void)[] = []
  const sockets = new Set<net.Socket>()
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', async () => {
      const path = req.url ?? '/'
      const r: Received = {
        path,
        id: String(req.headers['webhook-id'] ?? ''),
        headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])),
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      }
      got.push(r)
      for (const w of waiters) w()
      waiters = []
      const a = answers.get(path)?.(r) ?? { status: 200 }
      if (a.hold) await a.hold
      res.writeHead(a.status, a.headers ?? {})
      res.end(a.body ?? '')
    })
  })
  server.on('connection', (s) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as net.AddressInfo).port
  const receiver = {
    port,
    got,
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    /** The requests of a path, in arrival order. */
    of: (path: string) => got.filter((r) => r.path === path),
    answer(path: string, fn: ((r: Received) => Answer) | null) {
      if (fn) answers.set(path, fn)
      else answers.delete(path)
    },
    async until(path: string, n: number, ms = 10_000) {
      const end = Date.now() + ms
      while (receiver.of(path).length < n) {
        const left = end - Date.now()
        if (left <= 0)
          throw new Error(`waited ${ms} ms for ${n} requests on ${path}, got ${receiver.of(path).length}`)
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, left)
          waiters.push(() => {
            clearTimeout(t)
            resolve()
          })
        })
      }
      return receiver.of(path)
    },
    async close() {
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
  return receiver
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>
