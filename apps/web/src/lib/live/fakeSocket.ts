import type { LiveFrame } from '@aed/contracts/live'

/** A WebSocket stand-in for tests: records what is sent and lets the test open, push and close. */
export class FakeSocket {
  static all: FakeSocket[] = []
  static last() {
    return FakeSocket.all[FakeSocket.all.length - 1]
  }
  static reset() {
    FakeSocket.all = []
  }
  sent: unknown[] = []
  closedWith: number | null = null
  onopen: (() => void) | null = null
  onmessage: ((event: { data: string }) => void) | null = null
  onclose: ((event: { code: number; reason: string }) => void) | null = null
  onerror: (() => void) | null = null
  constructor(readonly url: string) {
    FakeSocket.all.push(this)
  }
  send(text: string) {
    this.sent.push(JSON.parse(text))
  }
  close(code = 1000) {
    this.closedWith = code
  }
  /** The server accepts the connection. */
  open() {
    this.onopen?.()
  }
  push(frame: LiveFrame) {
    this.onmessage?.({ data: JSON.stringify(frame) })
  }
  /** The server (or the network) ends the connection. */
  drop(code = 1006, reason = '') {
    this.onclose?.({ code, reason })
  }
}

/** The fake as the type the live client takes. */
export const FakeWebSocket = FakeSocket as unknown as typeof WebSocket
