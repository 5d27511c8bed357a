// Metrics for Prometheus (prom-client), in its text exposition format 0.0.4 (GET /metrics,
// modules/system/metrics.routes.ts). A metric is defined once, at a module's top level (its name,
// help and label names, like a table's columns); its values belong to an owner, the app's context
// (any object here: lib/ knows no AppContext), which gets a prom-client Registry of its own on
// first use, so two apps in one process (tests, two instances) count apart and never meet in
// prom-client's global registry. A scrape lists every defined metric: its preset series at 0 until
// counted, so an alert on a rate sees the series before the first event. The process's own
// figures (event-loop delay, heap, CPU: prom-client's default metrics, prefixed aed_) are one
// registry for the process, added to every owner's scrape.

import {
  collectDefaultMetrics,
  Histogram,
  Counter as PromCounter,
  Gauge as PromGauge,
  Registry,
} from 'prom-client'

/** Whose values: the app's context. Series are kept per owner and dropped with it. */
type Owner = object

/** What GET /metrics answers with. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

/** One series' label values, by the metric's label names. */
export type Labels<L extends string> = { readonly [K in L]: string }

type Kind = 'counter' | 'gauge' | 'histogram'
type Definition = {
  name: string
  help: string
  kind: Kind
  labels: readonly string[]
  preset: readonly Record<string, string>[]
  buckets?: number[]
}
type PromMetric = PromCounter<string> | PromGauge<string> | Histogram<string>
type Instance = {
  registry: Registry
  metrics: Map<string, PromMetric>
  /** Run before each scrape: gauges read at scrape time (a query, a socket count). */
  hooks: Set<() => unknown>
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const LABEL = /^[a-zA-Z_][a-zA-Z0-9_]*$/

const definitions = new Map<string, Definition>()
const instances = new WeakMap<Owner, Instance>()

/** A counter: only goes up (a restart starts it at 0 again; Prometheus's rate() knows). */
export type Counter<L extends string> = {
  readonly name: string
  inc(ctx: Owner, labels: Labels<L>, by?: number): void
  get(ctx: Owner, labels: Labels<L>): Promise<number>
}

/** A gauge: a value that is set, up or down. */
export type Gauge<L extends string> = {
  readonly name: string
  set(ctx: Owner, labels: Labels<L>, value: number): void
  inc(ctx: Owner, labels: Labels<L>, by?: number): void
  get(ctx: Owner, labels: Labels<L>): Promise<number>
}

/** A histogram of durations (seconds) or sizes. */
export type Histo<L extends string> = {
  readonly name: string
  observe(ctx: Owner, labels: Labels<L>, value: number): void
  /** The number of observations of one series. */
  count(ctx: Owner, labels: Labels<L>): Promise<number>
}

type Options<L extends string> = {
  /** Label names, in the order they are written. */
  labels?: readonly L[]
  /** Series shown at 0 before anything is counted (e.g. every sender_kind). */
  preset?: readonly Labels<L>[]
}

function define<L extends string>(
  kind: Kind,
  name: string,
  help: string,
  o: Options<L> & { buckets?: number[] },
) {
  if (!NAME.test(name)) throw new Error(`metric name ${name} is not valid`)
  if (definitions.has(name)) throw new Error(`metric ${name} is defined twice`)
  const labels = o.labels ?? []
  for (const l of labels) {
    if (!LABEL.test(l) || l.startsWith('__')) throw new Error(`label ${l} of ${name} is not valid`)
  }
  const def: Definition = { name, help, kind, labels, preset: [], buckets: o.buckets }
  def.preset = (o.preset ?? []).map((p) => pick(def, p))
  definitions.set(name, def)
  return def
}

/** The label values in the metric's own order; a missing one is a bug in the caller. */
function pick(def: Definition, labels: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const l of def.labels) {
    const v = labels[l]
    if (v === undefined) throw new Error(`metric ${def.name} needs label ${l}`)
    out[l] = String(v)
  }
  return out
}

function create(def: Definition, registry: Registry): PromMetric {
  const common = { name: def.name, help: def.help, labelNames: [...def.labels], registers: [registry] }
  if (def.kind === 'counter') return new PromCounter(common)
  if (def.kind === 'gauge') return new PromGauge(common)
  return new Histogram({ ...common, ...(def.buckets ? { buckets: def.buckets } : {}) })
}

function instanceOf(ctx: Owner): Instance {
  let inst = instances.get(ctx)
  if (!inst) {
    inst = { registry: new Registry(), metrics: new Map(), hooks: new Set() }
    instances.set(ctx, inst)
  }
  return inst
}

/** The owner's prom-client metric of a definition, made (with its preset series) on first use. */
function metricOf<M extends PromMetric>(ctx: Owner, def: Definition): M {
  const inst = instanceOf(ctx)
  let m = inst.metrics.get(def.name)
  if (!m) {
    m = create(def, inst.registry)
    for (const p of def.preset) {
      if (m instanceof Histogram) m.zero(p)
      else if (m instanceof PromCounter) m.inc(p, 0)
      else m.set(p, 0)
    }
    inst.metrics.set(def.name, m)
  }
  return m as M
}

async function seriesValue(m: PromMetric, labels: Record<string, string>, name?: string): Promise<number> {
  const { values } = await m.get()
  const keys = Object.keys(labels)
  const found = values.find(
    (v) =>
      (name === undefined || (v as { metricName?: string }).metricName === name) &&
      keys.every((k) => String((v.labels as Record<string, unknown>)[k]) === labels[k]) &&
      Object.keys(v.labels).filter((k) => k !== 'le').length === keys.length,
  )
  return found?.value ?? 0
}

/** Defines a counter (once per process, at a module's top level). */
export function counter<L extends string = never>(
  name: string,
  help: string,
  o: Options<L> = {},
): Counter<L> {
  const def = define('counter', name, help, o)
  return {
    name,
    inc(ctx, labels, by = 1) {
      if (!(by >= 0)) throw new Error(`counter ${name} cannot go down (${by})`)
      metricOf<PromCounter<string>>(ctx, def).inc(pick(def, labels), by)
    },
    get: (ctx, labels) => seriesValue(metricOf(ctx, def), pick(def, labels)),
  }
}

/** Defines a gauge (once per process, at a module's top level). */
export function gauge<L extends string = never>(name: string, help: string, o: Options<L> = {}): Gauge<L> {
  const def = define('gauge', name, help, o)
  return {
    name,
    set(ctx, labels, value) {
      metricOf<PromGauge<string>>(ctx, def).set(pick(def, labels), value)
    },
    inc(ctx, labels, by = 1) {
      metricOf<PromGauge<string>>(ctx, def).inc(pick(def, labels), by)
    },
    get: (ctx, labels) => seriesValue(metricOf(ctx, def), pick(def, labels)),
  }
}

/** Defines a histogram (once per process, at a module's top level); prom-client's buckets unless told. */
export function histogram<L extends string = never>(
  name: string,
  help: string,
  o: Options<L> & { buckets?: number[] } = {},
): Histo<L> {
  const def = define('histogram', name, help, o)
  return {
    name,
    observe(ctx, labels, value) {
      metricOf<Histogram<string>>(ctx, def).observe(pick(def, labels), value)
    },
    count: (ctx, labels) => seriesValue(metricOf(ctx, def), pick(def, labels), `${name}_count`),
  }
}

/**
 * Runs `fn` before each scrape of the owner's metrics (a gauge read at scrape: a query, a count
 * of sockets); answers a function that stops it. A hook that throws is left out of that scrape.
 */
export function beforeScrape(ctx: Owner, fn: () => unknown): () => void {
  const hooks = instanceOf(ctx).hooks
  hooks.add(fn)
  return () => void hooks.delete(fn)
}

let processRegistry: Registry | null = null

/** The process's figures (event-loop delay, memory, CPU, handles), one set for the process. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry()
    collectDefaultMetrics({ register: processRegistry, prefix: 'aed_' })
  }
  return processRegistry
}

/** Every defined metric with this context's values, and the process's, in the text format 0.0.4. */
export async function renderMetrics(ctx: Owner): Promise<string> {
  const inst = instanceOf(ctx)
  await Promise.allSettled([...inst.hooks].map(async (h) => h()))
  for (const def of definitions.values()) metricOf(ctx, def)
  const own = await inst.registry.metrics()
  const proc = await processMetrics().metrics()
  return [own, proc]
    .map((t) => t.trim())
    .filter(Boolean)
    .join('\n\n')
    .concat('\n')
}
