import { describe, expect, it } from 'vitest'
import type { AppContext } from '../context.ts'
import { counter, gauge, renderMetrics } from './metrics.ts'

// The registry without an app: definitions are the process's, values each context's own.
const a = {} as AppContext
const b = {} as AppContext

const requests = counter('test_metrics_requests_total', 'Requests\\seen\nby "kind"', {
  labels: ['kind', 'code'],
  preset: [{ kind: 'x', code: '0' }],
})
const depth = gauge('test_metrics_queue_depth', 'Rows waiting')

/** The lines of the rendered text that belong to the test metrics. */
const ours = (ctx: AppContext) =>
  renderMetrics(ctx)
    .split('\n')
    .filter((l) => l.includes('test_metrics_'))

describe('metrics registry', () => {
  it('writes the text format 0.0.4: help and type, presets at 0, labels escaped, values per context', () => {
    expect(ours(b)).toEqual([
      '# HELP test_metrics_queue_depth Rows waiting',
      '# TYPE test_metrics_queue_depth gauge',
      'test_metrics_queue_depth 0',
      '# HELP test_metrics_requests_total Requests\\\\seen\\nby "kind"',
      '# TYPE test_metrics_requests_total counter',
      'test_metrics_requests_total{kind="x",code="0"} 0',
    ])
    requests.inc(a, { code: '1', kind: 'a"b\\c\nd' })
    requests.inc(a, { kind: 'x', code: '0' }, 2)
    depth.set(a, {}, 7)
    depth.inc(a, {}, -2)
    expect(ours(a)).toEqual([
      '# HELP test_metrics_queue_depth Rows waiting',
      '# TYPE test_metrics_queue_depth gauge',
      'test_metrics_queue_depth 5',
      '# HELP test_metrics_requests_total Requests\\\\seen\\nby "kind"',
      '# TYPE test_metrics_requests_total counter',
      'test_metrics_requests_total{kind="a\\"b\\\\c\\nd",code="1"} 1',
      'test_metrics_requests_total{kind="x",code="0"} 2',
    ])
    expect(requests.get(a, { kind: 'x', code: '0' })).toBe(2)
    expect(requests.get(b, { kind: 'x', code: '0' })).toBe(0)
    expect(renderMetrics(a).endsWith('\n')).toBe(true)
  })

  it('refuses what would be a bug: a missing label, a counter going down, a name used twice', () => {
    expect(() => requests.inc(a, { kind: 'x' } as never)).toThrow(/needs label code/)
    expect(() => requests.inc(a, { kind: 'x', code: '0' }, -1)).toThrow(/cannot go down/)
    expect(() => counter('test_metrics_requests_total', 'again')).toThrow(/defined twice/)
    expect(() => counter('test-metrics', 'bad name')).toThrow(/not valid/)
    expect(() => gauge('test_metrics_bad_label', 'x', { labels: ['__reserved'] })).toThrow(/not valid/)
  })
})
