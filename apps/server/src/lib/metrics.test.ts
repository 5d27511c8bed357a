import { describe, expect, it } from 'vitest'
import { beforeScrape, counter, gauge, histogram, renderMetrics } from './metrics.ts'

// The registry without an app: definitions are the process's, values each owner's own registry.
const a = {}
const b = {}

const requests = counter('test_metrics_requests_total', 'Requests\\seen\nby "kind"', {
  labels: ['kind', 'code'],
  preset: [{ kind: 'x', code: '0' }],
})
const depth = gauge('test_metrics_queue_depth', 'Rows waiting')
const took = histogram('test_metrics_took_seconds', 'Time taken', { buckets: [0.1, 1] })

/** The lines of the rendered text that belong to the test metrics. */
const ours = async (owner: object) =>
  (await renderMetrics(owner)).split('\n').filter((l) => l.includes('test_metrics_'))

describe('metrics registry', () => {
  it('writes the text format 0.0.4: help and type, presets at 0, labels escaped, values per owner', async () => {
    const fresh = await ours(b)
    expect(fresh).toContain('# TYPE test_metrics_queue_depth gauge')
    expect(fresh).toContain('test_metrics_queue_depth 0')
    expect(fresh).toContain('# HELP test_metrics_requests_total Requests\\\\seen\\nby "kind"')
    expect(fresh).toContain('# TYPE test_metrics_requests_total counter')
    expect(fresh).toContain('test_metrics_requests_total{kind="x",code="0"} 0')
    expect(fresh).toContain('# TYPE test_metrics_took_seconds histogram')

    requests.inc(a, { code: '1', kind: 'a"b\\c\nd' })
    requests.inc(a, { kind: 'x', code: '0' }, 2)
    depth.set(a, {}, 7)
    depth.inc(a, {}, -2)
    took.observe(a, {}, 0.5)
    const now = await ours(a)
    expect(now).toContain('test_metrics_queue_depth 5')
    expect(now).toContain('test_metrics_requests_total{kind="a\\"b\\\\c\\nd",code="1"} 1')
    expect(now).toContain('test_metrics_requests_total{kind="x",code="0"} 2')
    expect(now).toContain('test_metrics_took_seconds_bucket{le="0.1"} 0')
    expect(now).toContain('test_metrics_took_seconds_bucket{le="1"} 1')
    expect(now).toContain('test_metrics_took_seconds_count 1')
    expect(await requests.get(a, { kind: 'x', code: '0' })).toBe(2)
    expect(await requests.get(b, { kind: 'x', code: '0' })).toBe(0)
    expect(await took.count(a, {})).toBe(1)
    expect(await took.count(b, {})).toBe(0)
    expect((await renderMetrics(a)).endsWith('\n')).toBe(true)
  })

  it('adds the process figures (event-loop delay) with the aed_ prefix to every owner', async () => {
    for (const owner of [a, b]) {
      const text = await renderMetrics(owner)
      expect(text).toContain('# TYPE aed_nodejs_eventloop_lag_seconds gauge')
      expect(text).toContain('# TYPE aed_process_cpu_seconds_total counter')
    }
  })

  it('runs the owner’s scrape hooks first, and stops them when told', async () => {
    const c = {}
    let n = 0
    const stop = beforeScrape(c, () => depth.set(c, {}, ++n))
    expect(await ours(c)).toContain('test_metrics_queue_depth 1')
    expect(await ours(c)).toContain('test_metrics_queue_depth 2')
    stop()
    expect(await ours(c)).toContain('test_metrics_queue_depth 2')
  })

  it('refuses what would be a bug: a missing label, a counter going down, a name used twice', () => {
    expect(() => requests.inc(a, { kind: 'x' } as never)).toThrow(/needs label code/)
    expect(() => requests.inc(a, { kind: 'x', code: '0' }, -1)).toThrow(/cannot go down/)
    expect(() => counter('test_metrics_requests_total', 'again')).toThrow(/defined twice/)
    expect(() => counter('test-metrics', 'bad name')).toThrow(/not valid/)
    expect(() => gauge('test_metrics_bad_label', 'x', { labels: ['__reserved'] })).toThrow(/not valid/)
  })
})
