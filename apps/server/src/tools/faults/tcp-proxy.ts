import net from 'node:net'

// A TCP proxy in this process between a server instance and PostgreSQL, so the fault suite can
// cut and slow one instance's database link without an outside tool (tc, iptables, toxiproxy).

/**
 * What the proxy does with traffic: pass it; delay every chunk by `ms`; drop it (connections are
 * accepted and bytes read, but nothing is forwarded either way, so the peers see timeouts, not
 * errors); reset every connection (open ones at once, new ones as they come); refuse new
 * connections (the port is closed; open ones carry on as before).
 */
export type ProxyMode =
  | { kind: 'pass' }
  | { kind: 'delay'; ms: number }
  | { kind: 'drop' }
  | { kind: 'reset' }
  | { kind: 'refuse' }

/** One proxied connection: the client's socket and the one to the target. */
type Pair = { client: net.Socket; upstream: net.Socket }

export type TcpProxy = {
  /** The port it listens on (127.0.0.1), the same across a refuse and back. */
  port: number
  mode(): ProxyMode
  /** Switches the mode now; resolves once the listener is open or closed as the mode needs. */
  setMode(mode: ProxyMode): Promise<void>
  /** Connections open now. */
  open(): number
  /** Connections accepted since the start. */
  accepted(): number
  /** Bytes dropped since the start (either way). */
  dropped(): number
  close(): Promise<void>
}

/**
 * Starts a proxy on a free port of 127.0.0.1 to `target`, passing traffic. The target is read at
 * every new connection, so it may be filled in after the start (once the proxied service has a port).
 */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: ProxyMode = { kind: 'pass' }
  const pairs = new Set<Pair>()
  /** Connections accepted while dropping: connected upstream when traffic passes again. */
  const pending = new Set<Pair>()
  let accepted = 0
  let dropped = 0
  let listening = false

  function forward(from: net.Socket, to: net.Socket) {
    from.on('data', (chunk: Buffer) => {
      const m = mode
      if (m.kind === 'drop') {
        dropped += chunk.length
        return
      }
      if (m.kind === 'delay') {
        // Each chunk waits its own delay; they keep their order since the delay is the same.
        setTimeout(() => {
          if (!to.destroyed) to.write(chunk)
        }, m.ms)
        return
      }
      if (!to.destroyed) to.write(chunk)
    })
  }

  const server = net.createServer((client) => {
    accepted++
    if (mode.kind === 'reset') {
      client.resetAndDestroy()
      return
    }
    // Black-holed connections get no upstream at all: the client waits for an answer that never comes.
    const upstream = new net.Socket()
    const pair = { client, upstream }
    pairs.add(pair)
    const end = () => {
      pairs.delete(pair)
      client.destroy()
      upstream.destroy()
    }
    client.on('error', end)
    client.on('close', end)
    upstream.on('error', end)
    upstream.on('close', end)
    forward(client, upstream)
    forward(upstream, client)
    if (mode.kind !== 'drop') upstream.connect(target.port, target.host)
    else pending.add(pair)
  })

  function listen(port: number) {
    return new Promise<void>((resolve, reject) => {
      server.once('error', reject)
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject)
        listening = true
        resolve()
      })
    })
  }
  await listen(0)
  const port = (server.address() as net.AddressInfo).port

  function resetAll() {
    for (const p of pairs) {
      p.client.resetAndDestroy()
      p.upstream.destroy()
    }
    pairs.clear()
    pending.clear()
  }

  return {
    port,
    mode: () => mode,
    async setMode(next) {
      mode = next
      if (next.kind === 'reset') resetAll()
      if (next.kind === 'pass' || next.kind === 'delay') {
        for (const p of pending) if (!p.upstream.destroyed) p.upstream.connect(target.port, target.host)
        pending.clear()
      }
      if (next.kind === 'refuse' && listening) {
        listening = false
        // close() waits for open connections too; they stay, so do not wait for it.
        server.close()
      } else if (next.kind !== 'refuse' && !listening) await listen(port)
    },
    open: () => pairs.size,
    accepted: () => accepted,
    dropped: () => dropped,
    async close() {
      resetAll()
      if (listening) await new Promise<void>((resolve) => server.close(() => resolve()))
      listening = false
    },
  }
}
