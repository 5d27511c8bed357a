import net from 'node:net'

// A lean MQTT 3.1.1 device connection for 20,000 devices in one process: a socket, CONNECT with
// a username and password, PUBLISH at QoS 1 and its PUBACK. mqtt.js keeps a store, timers and
// streams per client (tens of KiB each); this keeps a socket and a map of packets in flight.

/** An MQTT string: its length in two bytes, then UTF-8. */
function str(s: string): Buffer {
  const b = Buffer.from(s)
  const out = Buffer.allocUnsafe(2 + b.length)
  out.writeUInt16BE(b.length, 0)
  b.copy(out, 2)
  return out
}

/** A packet: the fixed header's first byte, the remaining length (variable length), the body. */
function packet(first: number, body: Buffer): Buffer {
  const len: number[] = []
  let n = body.length
  do {
    let byte = n % 128
    n = Math.floor(n / 128)
    if (n > 0) byte |= 0x80
    len.push(byte)
  } while (n > 0)
  return Buffer.concat([Buffer.from([first, ...len]), body])
}

function connectPacket(clientId: string, username: string, password: string, keepalive: number) {
  const head = Buffer.from([
    0,
    4,
    0x4d,
    0x51,
    0x54,
    0x54,
    4,
    0x80 | 0x40 | 0x02,
    keepalive >> 8,
    keepalive & 0xff,
  ])
  return packet(0x10, Buffer.concat([head, str(clientId), str(username), str(password)]))
}

export type LeanOptions = {
  host: string
  port: number
  clientId: string
  username: string
  password: string
  /** Seconds; the caller sends ping() at least this often (0: none). */
  keepalive: number
}

/** One device's connection: publish() resolves at the broker's PUBACK. */
export class LeanMqtt {
  private socket: net.Socket | null = null
  private buf: Buffer = Buffer.alloc(0)
  private nextId = 1
  private waiting = new Map<number, { resolve: () => void; reject: (e: Error) => void }>()
  connected = false
  /** Why the connection ended or was refused, if it did. */
  error: string | null = null

  constructor(private readonly o: LeanOptions) {}

  /** Resolves true at a CONNACK of 0, false at a refusal, a close or after `timeoutMs`. */
  connect(timeoutMs = 30_000): Promise<boolean> {
    return new Promise((resolve) => {
      const s = net.connect(this.o.port, this.o.host)
      this.socket = s
      s.setNoDelay(true)
      const timer = setTimeout(() => {
        this.error = 'no CONNACK'
        s.destroy()
        resolve(false)
      }, timeoutMs)
      s.on('connect', () =>
        s.write(connectPacket(this.o.clientId, this.o.username, this.o.password, this.o.keepalive)),
      )
      s.on('data', (d: Buffer) => {
        this.buf = this.buf.length ? Buffer.concat([this.buf, d]) : d
        this.read((code) => {
          clearTimeout(timer)
          this.connected = code === 0
          if (code !== 0) this.error = `CONNACK ${code}`
          resolve(code === 0)
        })
      })
      s.on('error', (e) => {
        this.error ??= e.message
      })
      s.on('close', () => {
        clearTimeout(timer)
        this.connected = false
        this.error ??= 'closed'
        for (const w of this.waiting.values()) w.reject(new Error(this.error))
        this.waiting.clear()
        resolve(false)
      })
    })
  }

  /** Splits what arrived into packets: CONNACK to `connack`, PUBACK to its publish, PUBLISH acknowledged. */
  private read(connack: (code: number) => void) {
    for (;;) {
      let len = 0
      let mul = 1
      let i = 1
      for (;;) {
        if (i >= this.buf.length) return
        const b = this.buf[i++]
        len += (b & 0x7f) * mul
        mul *= 128
        if (!(b & 0x80)) break
      }
      if (this.buf.length < i + len) return
      const first = this.buf[0]
      const type = first >> 4
      const body = this.buf.subarray(i, i + len)
      this.buf = this.buf.subarray(i + len)
      if (type === 2) connack(body[1])
      else if (type === 4) {
        const id = body.readUInt16BE(0)
        const w = this.waiting.get(id)
        this.waiting.delete(id)
        w?.resolve()
      } else if (type === 3 && (first & 0x06) !== 0) {
        // A QoS 1 delivery (a command): acknowledged so the broker does not send it again.
        const topicLen = body.readUInt16BE(0)
        this.socket?.write(Buffer.from([0x40, 2, body[2 + topicLen], body[3 + topicLen]]))
      }
    }
  }

  /** Publishes at QoS 1; resolves at the PUBACK, rejects when the connection ends first. */
  publish(topic: string, payload: string): Promise<void> {
    const s = this.socket
    if (!s || !this.connected) return Promise.reject(new Error(this.error ?? 'not connected'))
    const id = this.nextId
    this.nextId = (this.nextId % 65535) + 1
    const idBytes = Buffer.from([id >> 8, id & 0xff])
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject })
      s.write(packet(0x32, Buffer.concat([str(topic), idBytes, Buffer.from(payload)])))
    })
  }

  /** Packets published and not acknowledged yet. */
  get inflight() {
    return this.waiting.size
  }

  ping() {
    if (this.connected) this.socket?.write(Buffer.from([0xc0, 0]))
  }

  /** Sends DISCONNECT and closes. */
  close() {
    if (this.connected) this.socket?.end(Buffer.from([0xe0, 0]))
    else this.socket?.destroy()
    this.connected = false
  }
}
