// What a simulator run counts, and the token bucket that holds it to a rate.

export type Stats = ReturnType<typeof createStats>

export function createStats() {
  const latencies: number[] = []
  const s = {
    started: performance.now(),
    sent: 0,
    acked: 0,
    duplicates: 0,
    refused: 0,
    errors: 0,
    uploads: 0,
    commands: 0,
    /** One acknowledgement `ms` after its message went out. */
    latency(ms: number, n = 1) {
      for (let i = 0; i < n; i++) latencies.push(ms)
    },
    percentile(p: number) {
      if (latencies.length === 0) return 0
      const sorted = [...latencies].sort((a, b) => a - b)
      return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
    },
    line(queued: number) {
      const secs = (performance.now() - s.started) / 1000
      const rate = s.acked + s.duplicates
      const ms = (p: number) => `${s.percentile(p).toFixed(0)}`
      return (
        `[${secs.toFixed(0).padStart(4)}s] sent ${s.sent} acked ${s.acked} dup ${s.duplicates} refused ${s.refused} ` +
        `errors ${s.errors} | ${(rate / Math.max(secs, 0.001)).toFixed(1)} msg/s | ack p50 ${ms(50)} p95 ${ms(95)} ` +
        `p99 ${ms(99)} ms | uploads ${s.uploads} cmds ${s.commands} queued ${queued}`
      )
    },
  }
  return s
}

/** Up to `rate` tokens a second, bursts of one second's worth; `take` waits for its tokens. */
export function tokenBucket(rate: number | null) {
  let tokens = rate ?? 0
  let last = performance.now()
  let chain: Promise<void> = Promise.resolve()
  const refill = () => {
    const now = performance.now()
    tokens = Math.min(rate as number, tokens + ((now - last) / 1000) * (rate as number))
    last = now
  }
  return {
    take(n: number): Promise<void> {
      if (rate === null) return Promise.resolve()
      // One waiter at a time, so a big batch is not starved by small ones.
      chain = chain.then(async () => {
        let need = Math.min(n, rate)
        for (;;) {
          refill()
          if (tokens >= need) {
            tokens -= need
            n -= need
            if (n <= 0) return
            need = Math.min(n, rate)
          }
          await new Promise((r) => setTimeout(r, Math.max(1, ((need - tokens) / rate) * 1000)))
        }
      })
      return chain
    },
  }
}
