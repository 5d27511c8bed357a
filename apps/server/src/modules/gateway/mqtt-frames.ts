import { Duplex, pipeline, Transform, type TransformCallback } from 'node:stream'

/**
 * Passes an MQTT byte stream through unchanged while reading each packet's fixed header, and
 * fails the stream as soon as a header announces a packet larger than `max` bytes: the broker's
 * parser would otherwise buffer all of it (MQTT 3.1.1 allows 256 MB) before anyone could say no.
 */
export class FrameLimit extends Transform {
  /** Bytes of the current packet's body still to pass; -1 while reading a fixed header. */
  private rest = -1
  private length = 0
  private shift = 0
  private inHeader = false

  constructor(private readonly max: number) {
    super()
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback) {
    let i = 0
    while (i < chunk.length) {
      if (this.rest > 0) {
        const take = Math.min(this.rest, chunk.length - i)
        this.rest -= take
        i += take
        continue
      }
      if (!this.inHeader) {
        // The first byte: packet type and flags. The remaining length follows.
        this.inHeader = true
        this.length = 0
        this.shift = 0
        i++
        continue
      }
      const b = chunk[i++]
      this.length += (b & 0x7f) * 2 ** this.shift
      this.shift += 7
      if (b & 0x80) {
        if (this.shift > 21) return done(new Error('malformed MQTT remaining length'))
        continue
      }
      if (this.length > this.max) {
        return done(new Error(`MQTT packet of ${this.length} bytes is over the limit of ${this.max}`))
      }
      this.inHeader = false
      this.rest = this.length
    }
    done(null, chunk)
  }
}

/** A connection whose incoming packets are held to `max` bytes: read through FrameLimit, written as is. */
export function limitFrames(socket: Duplex, max: number): Duplex {
  const limit = new FrameLimit(max)
  const guarded = Duplex.from({ readable: limit, writable: socket })
  pipeline(socket, limit, (err) => {
    if (err) guarded.destroy(err)
  })
  guarded.on('close', () => socket.destroy())
  return guarded
}
